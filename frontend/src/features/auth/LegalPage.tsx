import { HomeHeader } from "../../components/HomeHeader";
import { LegalContent } from "./LegalContent";
import { PRIVACY_POLICY, TERMS_OF_USE } from "./legalText";

export function LegalPage({ kind }: { kind: "terms" | "privacy" }) {
  const doc = kind === "terms" ? TERMS_OF_USE : PRIVACY_POLICY;
  return (
    <div className="min-h-dvh bg-surface">
      <HomeHeader />
      <main className="mx-auto max-w-3xl px-4 py-8">
        <LegalContent doc={doc} showTitle />
      </main>
    </div>
  );
}
