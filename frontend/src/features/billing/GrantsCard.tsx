import { Gift, Search } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../../api/errors";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Select } from "../../components/Select";
import { Spinner } from "../../components/Spinner";
import type { Grant, Plan } from "./types";
import { useGrantAccess } from "./useGrantAccess";
import { useGrants } from "./useGrants";
import { useRevokeGrant } from "./useRevokeGrant";

type Educator = Plan["educators"][number];
const day = (value: string | null) => (value ? new Date(value).toLocaleDateString() : "No end");
const cell = "block py-0.5 md:table-cell md:px-3 md:py-2.5 before:mr-1.5 before:text-muted before:content-[attr(data-label)':'] md:before:content-none";

function GrantForm({ educators }: { educators: Educator[] }) {
  const id = useId();
  const grant = useGrantAccess();
  const [email, setEmail] = useState("");
  const [scope, setScope] = useState("all");
  const [until, setUntil] = useState("");

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    grant.mutate(
      {
        email: email.trim(),
        educatorId: scope === "all" ? null : Number(scope),
        // The end of the chosen day, in the admin's own time zone.
        endsAt: until ? new Date(`${until}T23:59:59`).toISOString() : null,
      },
      { onSuccess: () => { setEmail(""); setUntil(""); } },
    );
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[2fr_1.5fr_1fr_auto] sm:items-end">
      <div>
        <Label htmlFor={`${id}-email`}>Member e-mail</Label>
        <Input id={`${id}-email`} type="email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div>
        <Label htmlFor={`${id}-scope`}>Access to</Label>
        <Select id={`${id}-scope`} value={scope} onChange={(e) => setScope(e.target.value)}>
          <option value="all">All educators</option>
          {educators.map((educator) => (
            <option key={educator.id} value={String(educator.id)}>{educator.name}</option>
          ))}
        </Select>
      </div>
      <div>
        <Label htmlFor={`${id}-until`}>Until (optional)</Label>
        <Input id={`${id}-until`} type="date" value={until} onChange={(e) => setUntil(e.target.value)} />
      </div>
      <Button type="submit" disabled={grant.isPending} className="h-12">
        <Gift className="h-4 w-4" aria-hidden="true" />
        Grant access
      </Button>
      {grant.isError ? <ErrorAlert className="sm:col-span-4" message={errorMessage(grant.error, "Could not grant access")} /> : null}
    </form>
  );
}

function GrantRow({ grant, educators }: { grant: Grant; educators: Educator[] }) {
  const revoke = useRevokeGrant();
  const scope = grant.educatorId === null ? "All educators" : (educators.find((e) => e.id === grant.educatorId)?.name ?? `Educator ${grant.educatorId}`);
  const what = grant.kind === "complimentary" ? "Complimentary" : (grant.planName ?? "Subscription");
  return (
    <tr className="mb-3 block rounded-xl border border-line p-3 md:mb-0 md:table-row md:rounded-none md:border-0 md:border-b md:p-0">
      <td data-label="Member" className={`${cell} break-all font-semibold text-fg md:break-normal`}>{grant.email}</td>
      <td data-label="Access to" className={`${cell} text-fg`}>{scope}</td>
      <td data-label="Kind" className={`${cell} text-fg`}>{what}</td>
      <td data-label="Status" className={cell}>
        <Badge tone={grant.isOpen ? "green" : "red"}>{grant.revokedAt ? "revoked" : grant.status.replace("_", " ")}</Badge>
      </td>
      <td data-label="Ends" className={`${cell} text-muted`}>{day(grant.kind === "complimentary" ? grant.endsAt : grant.currentPeriodEnd)}</td>
      <td className="block pt-2 md:table-cell md:px-3 md:py-2.5">
        {grant.kind === "complimentary" && !grant.revokedAt && grant.isOpen ? (
          <Button variant="outline" size="sm" disabled={revoke.isPending} onClick={() => revoke.mutate(grant.id)} aria-label={`Revoke access of ${grant.email}`}>
            Revoke
          </Button>
        ) : null}
        {revoke.isError ? <ErrorAlert className="mt-2" message={errorMessage(revoke.error, "Could not revoke access")} /> : null}
      </td>
    </tr>
  );
}

/** Complimentary access: grant it (with an optional end date), find a member's grants, revoke. */
export function GrantsCard({ educators }: { educators: Educator[] }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const grants = useGrants(email.trim());
  return (
    <Card className="p-4 sm:p-5">
      <h2 className="mb-3 text-lg font-bold text-fg">Access grants</h2>
      <GrantForm educators={educators} />
      <div className="mt-4 max-w-md">
        <Label htmlFor={`${id}-q`}>Find a member's grants by e-mail</Label>
        <div className="relative">
          <Search className="pointer-events-none absolute left-3.5 top-1/2 h-4 w-4 -translate-y-1/2 text-muted" aria-hidden="true" />
          <Input id={`${id}-q`} type="search" className="pl-10" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
      </div>
      {grants.isError ? <ErrorAlert className="mt-3" message={errorMessage(grants.error, "Could not load the grants")} /> : null}
      {grants.isPending ? <Spinner className="mx-auto mt-6 h-6 w-6" /> : null}
      {grants.data ? (
        <table className="mt-4 w-full text-sm md:table">
          <caption className="sr-only">Access grants</caption>
          <thead className="sr-only md:not-sr-only">
            <tr className="border-b border-line text-left text-xs uppercase tracking-wide text-muted">
              {["Member", "Access to", "Kind", "Status", "Ends", "Actions"].map((name) => (
                <th key={name} scope="col" className="md:px-3 md:py-2">{name}</th>
              ))}
            </tr>
          </thead>
          <tbody className="block md:table-row-group">
            {grants.data.items.map((grant) => (
              <GrantRow key={grant.id} grant={grant} educators={educators} />
            ))}
          </tbody>
        </table>
      ) : null}
      {grants.data?.items.length === 0 ? <p className="py-6 text-center text-sm text-muted">No grants match.</p> : null}
    </Card>
  );
}
