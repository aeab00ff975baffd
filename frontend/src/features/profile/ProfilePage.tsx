import { ArrowLeft, BadgeCheck, LogOut, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { errorMessage } from "../../api/errors";
import { Button, buttonClasses } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { FullPageSpinner } from "../../components/Spinner";
import { ThemeToggle } from "../../components/ThemeToggle";
import type { SessionProps } from "../../lib/session";
import { PasswordCard } from "./PasswordCard";
import { ProfileCard } from "./ProfileCard";
import type { Profile } from "./types";
import { useProfile } from "./useProfile";

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
      <header className="sticky top-0 z-10 border-b border-line bg-surface sm:bg-surface/95">
        <nav aria-label="Profile" className="mx-auto flex max-w-3xl items-center justify-between gap-3 px-4 py-3">
          <Link to={isEducator ? "/educator/dashboard" : "/customer/dashboard"} className={buttonClasses("ghost", "sm")}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Back to Dashboard
          </Link>
          <div className="flex items-center gap-2">
            <ThemeToggle />
            <Button variant="outline" size="sm" onClick={onLogout} disabled={loggingOut}>
              <LogOut className="h-4 w-4" aria-hidden="true" />
              Logout
            </Button>
          </div>
        </nav>
      </header>
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-8">
        <h1 className="text-2xl font-bold text-fg">Profile</h1>
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
