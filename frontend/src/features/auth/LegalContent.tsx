import type { LegalDocument } from "./legalText";

export function LegalContent({ doc, showTitle = false }: { doc: LegalDocument; showTitle?: boolean }) {
  return (
    <div className="space-y-5 text-sm leading-relaxed text-muted">
      {showTitle ? <h1 className="text-2xl font-bold text-fg">{doc.title}</h1> : null}
      <p className="font-medium text-emerald-600 dark:text-emerald-400">{doc.effective}</p>
      <p>{doc.intro}</p>
      {doc.sections.map((section) => (
        <section key={section.heading} className="space-y-2">
          <h2 className="text-base font-semibold text-fg">{section.heading}</h2>
          {section.paragraphs.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
      ))}
    </div>
  );
}
