import { PageHeader } from "./PageHeader";

/** The public reading pages' PageHeader (legal texts, /proof, /plans): back to Home and the theme toggle. */
export function HomeHeader() {
  return <PageHeader start={{ kind: "back", to: "/", label: "Home" }} width="3xl" />;
}
