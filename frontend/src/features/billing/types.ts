import type { Schemas } from "../../api/client";

export type Plan = Schemas["PlanOut"];
export type AdminPlan = Schemas["AdminPlanOut"];
export type Grant = Schemas["GrantOut"];
export type PlanIn = Schemas["PlanIn"];
export type PlanPatch = Schemas["PlanPatch"];
export type GrantIn = Schemas["GrantIn"];
