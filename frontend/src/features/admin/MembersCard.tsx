import { Search } from "lucide-react";
import { useId, useState } from "react";
import { errorMessage } from "../../api/errors";
import { Badge, type BadgeTone } from "../../components/Badge";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Select } from "../../components/Select";
import { Spinner } from "../../components/Spinner";
import { MemberActions } from "./MemberActions";
import { Pager } from "./Pager";
import type { MemberFilter, MemberRole, MemberState } from "./types";
import { useMembers } from "./useMembers";

const STATE_TONE: Record<MemberState, BadgeTone> = { active: "green", disabled: "red", invited: "amber" };
const when = (value: string | null) => (value ? new Date(value).toLocaleString() : "Never");
/** On phones each row is a card and each cell shows its column name (from data-label). */
const cell = "block py-0.5 md:table-cell md:px-3 md:py-2.5 before:mr-1.5 before:text-muted before:content-[attr(data-label)':'] md:before:content-none";

/** The members table: search by e-mail or name, filter by role and state, page through. */
export function MembersCard({ selfId }: { selfId: number }) {
  const id = useId();
  const [filter, setFilter] = useState<MemberFilter>({ query: "", role: "", state: "", page: 1 });
  const members = useMembers(filter);
  const update = (change: Partial<MemberFilter>) => setFilter((current) => ({ ...current, page: 1, ...change }));

  return (
    <Card className="p-4 sm:p-5">
      <h2 className="mb-3 text-lg font-bold text-fg">Members</h2>
      <div className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
        <div>
          <Label htmlFor={`${id}-q`}>Search by e-mail or name</Label>
          <div className="relative">
            <Search className="pointer-events-none absolute left-3.5 top-1/2 h-4 w-4 -translate-y-1/2 text-muted" aria-hidden="true" />
            <Input id={`${id}-q`} type="search" className="pl-10" value={filter.query} onChange={(e) => update({ query: e.target.value })} />
          </div>
        </div>
        <div>
          <Label htmlFor={`${id}-role`}>Role</Label>
          <Select id={`${id}-role`} value={filter.role} onChange={(e) => update({ role: e.target.value as MemberRole | "" })}>
            <option value="">All roles</option>
            <option value="customer">Customer</option>
            <option value="educator">Educator</option>
            <option value="admin">Admin</option>
          </Select>
        </div>
        <div>
          <Label htmlFor={`${id}-state`}>State</Label>
          <Select id={`${id}-state`} value={filter.state} onChange={(e) => update({ state: e.target.value as MemberState | "" })}>
            <option value="">All states</option>
            <option value="active">Active</option>
            <option value="disabled">Disabled</option>
            <option value="invited">Invited</option>
          </Select>
        </div>
      </div>

      {members.isError ? <ErrorAlert className="mt-3" message={errorMessage(members.error, "Could not load members")} /> : null}
      {members.isPending ? <Spinner className="mx-auto mt-6 h-6 w-6" /> : null}
      {members.data ? (
        <>
          <table className="mt-4 w-full text-sm md:table">
            <caption className="sr-only">Members</caption>
            <thead className="sr-only md:not-sr-only">
              <tr className="border-b border-line text-left text-xs uppercase tracking-wide text-muted">
                <th scope="col" className="md:px-3 md:py-2">Name</th>
                <th scope="col" className="md:px-3 md:py-2">E-mail</th>
                <th scope="col" className="md:px-3 md:py-2">Role</th>
                <th scope="col" className="md:px-3 md:py-2">Created</th>
                <th scope="col" className="md:px-3 md:py-2">Last seen</th>
                <th scope="col" className="md:px-3 md:py-2">State</th>
                <th scope="col" className="md:px-3 md:py-2">Actions</th>
              </tr>
            </thead>
            <tbody className="block md:table-row-group">
              {members.data.items.map((member) => (
                <tr key={member.id} className="mb-3 block rounded-xl border border-line p-3 md:mb-0 md:table-row md:rounded-none md:border-0 md:border-b md:p-0">
                  <td data-label="Name" className={`${cell} font-semibold text-fg`}>
                    {`${member.firstName} ${member.lastName}`.trim() || "—"}
                  </td>
                  <td data-label="E-mail" className={`${cell} break-all text-fg md:break-normal`}>{member.email}</td>
                  <td data-label="Role" className={`${cell} capitalize text-fg`}>{member.role}</td>
                  <td data-label="Created" className={`${cell} text-muted`}>{when(member.createdAt)}</td>
                  <td data-label="Last seen" className={`${cell} text-muted`}>{when(member.lastSeenAt)}</td>
                  <td data-label="State" className={cell}>
                    <Badge tone={STATE_TONE[member.state]} className="capitalize">{member.state}</Badge>
                  </td>
                  <td className="block pt-2 md:table-cell md:px-3 md:py-2.5">
                    <MemberActions member={member} isSelf={member.id === selfId} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {members.data.items.length === 0 ? <p className="py-6 text-center text-sm text-muted">No members match.</p> : null}
          <Pager label="Members pages" page={filter.page} pageSize={members.data.pageSize} total={members.data.total} onPage={(page) => setFilter({ ...filter, page })} />
        </>
      ) : null}
    </Card>
  );
}
