import { BellRing, TrendingUp } from "lucide-react";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { toast } from "../../lib/notify";
import { Disclaimer } from "../../components/Disclaimer";
import { ExternalLink } from "../../components/ExternalLink";
import { PrivacyPolicyDialog, TermsOfUseDialog } from "./LegalDialogs";
import { LoginForm } from "./LoginForm";
import { LoginShell } from "./LoginShell";
import { useAppConfigValue } from "./useAppConfig";
import { useHiddenEducatorEntry } from "./useHiddenEducatorEntry";

export function CustomerLoginPage() {
  const navigate = useNavigate();
  const config = useAppConfigValue();

  const unlock = useCallback(() => {
    toast.message("Educator Access Unlocked", { description: "Redirecting to educator login..." });
    void navigate("/zinrai-educators-1");
  }, [navigate]);
  const onPageClick = useHiddenEducatorEntry(unlock);

  return (
    // The whole page counts clicks for the hidden educator entry.
    <LoginShell
      appName={config.appName}
      heading="Login"
      subtitle="Customer Portal - Learn Trading"
      icon={TrendingUp}
      accent="emerald"
      onClick={onPageClick}
      after={
        config.channelUrl ? (
          <ExternalLink
            href={config.channelUrl}
            className="mt-4 flex items-center justify-center gap-2 rounded-2xl border border-line bg-card px-4 py-3 text-sm font-medium text-fg transition-colors hover:bg-card-hover"
          >
            <BellRing className="h-4 w-4 text-emerald-500" aria-hidden="true" />
            Join our messaging channel for new idea alerts
          </ExternalLink>
        ) : null
      }
    >
      <LoginForm role="customer" submitLabel="Sign In" />
      <Disclaimer className="mt-6 border-t border-line pt-5 text-center">
        <p className="mt-2">
          By signing in you agree to our <TermsOfUseDialog /> and <PrivacyPolicyDialog />.
        </p>
      </Disclaimer>
    </LoginShell>
  );
}
