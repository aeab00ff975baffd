import { Card } from "../../components/Card";
import { RiskSettingsForm } from "./RiskSettingsForm";

/** The customer's risk settings on their profile page. */
export function RiskSettingsCard() {
  return (
    <Card>
      <h2 className="text-lg font-semibold text-fg">Position sizing</h2>
      <p className="mt-1 text-sm text-muted">Every idea card sizes a position with these numbers.</p>
      <div className="mt-4">
        <RiskSettingsForm />
      </div>
    </Card>
  );
}
