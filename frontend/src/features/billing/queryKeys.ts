export const billingKeys = {
  all: ["billing"] as const,
  plans: ["billing", "plans"] as const,
  adminPlans: ["billing", "admin", "plans"] as const,
  grants: (email: string) => ["billing", "admin", "grants", email] as const,
  mine: ["billing", "mine"] as const,
  checkout: (sessionId: string) => ["billing", "checkout", sessionId] as const,
};
