import { BadgeCheck, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { FullPageSpinner } from "../../components/Spinner";
import type { SessionProps } from "../../lib/session";
import { PasswordCard } from "./PasswordCard";
import { ProfileCard } from "./ProfileCard";
import type { Profile } from "./types";
import { useProfile } from "./useProfile";
import { PageHeader } from "../../components/PageHeader";

function TradingProfileCard({ profile }: { profile: Profile }) {
  const trading = profile.tradingProfile;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-fg">Trading Profile</h2>
      <dl className="mt-4 grid gap-3 text-sm">
        <div className="flex items-center justify-between gap-4">
          <dt className="text-muted">Years of Experience</dt>
          <dd className="font-semibold text-fg">{trading?.yearsExperience ?? profile.yearsExperience}</dd>
        </div>
        <div className="flex items-center justify-between gap-4">
          <dt className="text-muted">Trading Style</dt>
          <dd className="font-semibold text-fg">{trading?.tradingStyle ?? profile.tradingStyle ?? "Not set"}</dd>
        </div>
        <div className="flex items-center justify-between gap-4">
          <dt className="text-muted">Account Status</dt>
          <dd className="inline-flex items-center gap-1.5 font-semibold text-emerald-600 dark:text-emerald-400">
            <BadgeCheck className="h-4 w-4" aria-hidden="true" />
            {trading?.accountStatus ?? "Active"}
          </dd>
        </div>
      </dl>
    </Card>
  );
}

/** `extra`: cards other features add (the app composes the customer's risk settings here). */
export function ProfilePage({ user, onLogout, loggingOut, extra }: SessionProps & { extra?: ReactNode }) {
  const isEducator = user.role === "educator";
  const profile = useProfile();

  if (profile.isPending) return <FullPageSpinner label="Loading profile..." />;

  return (
    <div className="min-h-dvh bg-surface">
      <PageHeader
        start={{ kind: "back", to: isEducator ? "/educator/dashboard" : "/customer/dashboard", label: "Dashboard" }}
        title="Profile"
        onLogout={onLogout}
        loggingOut={loggingOut}
        width="3xl"
      />
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-8">
        {profile.isError ? (
          <div className="space-y-3">
            <ErrorAlert message={errorMessage(profile.error, "Failed to fetch profile")} />
            <Button variant="secondary" onClick={() => void profile.refetch()}>
              <RefreshCw className="h-4 w-4" aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : (
          <>
            <ProfileCard profile={profile.data} />
            {isEducator ? <TradingProfileCard profile={profile.data} /> : null}
          </>
        )}
        {extra}
        <PasswordCard />
      </main>
    </div>
  );
}
