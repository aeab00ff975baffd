import { lazy, type ComponentType } from "react";
import { Navigate, matchRoutes, useLocation, useParams, useRoutes, type RouteObject } from "react-router";
import { NotFoundPage } from "../components/NotFoundPage";
import { FullPageSpinner } from "../components/Spinner";
import { CustomerLoginPage } from "../features/auth/CustomerLoginPage";
import { useAppConfig } from "../features/auth/useAppConfig";
import { currentUserQueryOptions, useCurrentUser } from "../features/auth/useCurrentUser";
import type { IdeaType, Market, SessionProps } from "../lib/session";
import { maybeSignedIn } from "../features/auth/signedInHint";
// Part of the first download (~1 KB): a market page asks for its ideas before any screen code arrives.
import { activeIdeasQueryOptions } from "../features/ideas/api/useActiveIdeas";
import { usePrefetchQuery, type QueryClient } from "@tanstack/react-query";
import { unseenCountsQueryOptions } from "../features/ideas/api/useUnseenCounts";
import { useNotificationSettings } from "../features/notifications/useNotificationSettings";
import { RedirectSignedIn, RequireAdmin, RequireAuth, RequireEducator, loadSignedIn } from "./guards";
import { loadCustomerExtras } from "./ideaExtras";
import { persister } from "./persist";
import { DocumentTitle, RootLayout, type RouteHandle } from "./layouts";
import { WithSession } from "./session";

/**
 * Every screen but the customer login is loaded on demand (one chunk per screen), so the first
 * page downloads only what it shows and a customer never downloads the educator screens.
 */
function page<K extends string, P extends object>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const EducatorLoginPage = page(() => import("../features/auth/EducatorLoginPage"), "EducatorLoginPage");
const AdminLoginPage = page(() => import("../features/auth/AdminLoginPage"), "AdminLoginPage");
const SetPasswordPage = page(() => import("../features/auth/SetPasswordPage"), "SetPasswordPage");
const AdminPage = page(() => import("../features/admin/AdminPage"), "AdminPage");
const LegalPage = page(() => import("../features/auth/LegalPage"), "LegalPage");
const ProofPage = page(() => import("../features/proof/ProofPage"), "ProofPage");
const PlansPage = page(() => import("../features/billing/PlansPage"), "PlansPage");
const AdminPlansPage = page(() => import("../features/billing/AdminPlansPage"), "AdminPlansPage");
const MyBillingPage = page(() => import("../features/billing/MyBillingPage"), "MyBillingPage");
const CheckoutDonePage = page(() => import("../features/billing/CheckoutDonePage"), "CheckoutDonePage");
const CustomerChatPage = page(() => import("../features/chat/CustomerChatPage"), "CustomerChatPage");
const EducatorChatPage = page(() => import("../features/chat/EducatorChatPage"), "EducatorChatPage");
const EducatorDashboardPage = page(() => import("../features/ideas/educator/EducatorDashboardPage"), "EducatorDashboardPage");
const HistoryPage = page(() => import("../features/ideas/list/HistoryPage"), "HistoryPage");
const loadMarketChooser = () => import("../features/ideas/list/MarketChooserPage");
/**
 * A market's page with, for a customer, the notification settings (features/notifications) in its header: both
 * features' code is asked for together, so the header is drawn whole in the page's first paint.
 */
const loadMarketDashboard = async () => {
  const [{ MarketDashboardPage }, { NotificationSettingsDialog }] = await Promise.all([
    import("../features/ideas/list/MarketDashboardPage"),
    import("../features/notifications/NotificationSettingsDialog"),
  ]);
  const notificationSettings = <NotificationSettingsDialog />;
  return {
    MarketDashboardPage: (props: SessionProps & { market: Market }) => (
      <MarketDashboardPage {...props} notificationSettings={props.user.role === "customer" ? notificationSettings : null} />
    ),
  };
};
const MarketChooserPage = page(loadMarketChooser, "MarketChooserPage");
const MarketDashboardPage = page(loadMarketDashboard, "MarketDashboardPage");
const IdeaPage = page(() => import("../features/ideas/list/IdeaPage"), "IdeaPage");
const MyTradeIdeasPage = page(() => import("../features/ideas/educator/MyTradeIdeasPage"), "MyTradeIdeasPage");
const IdeaFormPage = page(() => import("../features/ideas/form/IdeaFormPage"), "IdeaFormPage");
const TestNotificationsPage = page(() => import("../features/notifications/TestNotificationsPage"), "TestNotificationsPage");
const ProfilePage = page(() => import("../features/profile/ProfilePage"), "ProfilePage");
const ProfileDialog = page(() => import("../features/profile/ProfileDialog"), "ProfileDialog");
const EducatorsPage = page(() => import("../features/trackrecords/EducatorsPage"), "EducatorsPage");
const EducatorPage = page(() => import("../features/trackrecords/EducatorPage"), "EducatorPage");
const OwnTrackRecord = page(() => import("../features/trackrecords/OwnTrackRecord"), "OwnTrackRecord");
const JournalPage = page(() => import("../features/desk/JournalPage"), "JournalPage");
const RiskSettingsCard = page(() => import("../features/desk/RiskSettingsCard"), "RiskSettingsCard");
const SetupsCard = page(() => import("../features/ideas/educator/SetupsCard"), "SetupsCard");

/** The push test subscribes the educator's own browser first (asking for permission if needed). */
const subscribeThisBrowser = async () => (await import("../features/pwa/push")).ensurePushSubscription({ ask: true });

/** /educator/:slug exists only for the slugs the server lists in /api/config; another educator's slug leads to your own. */
function EducatorSlugRoute() {
  const { slug } = useParams();
  const config = useAppConfig();
  const { data: user } = useCurrentUser();
  if (config.isPending) return <FullPageSpinner />;
  if (!slug || !config.data?.educatorSlugs.includes(slug)) return <NotFoundPage />;
  if (user && user.slug !== slug) return <Navigate to={user.slug ? `/educator/${user.slug}` : "/educator/dashboard"} replace />;
  return <WithSession>{educatorDashboardWith}</WithSession>;
}

/** /customer/educators/:slug: one educator's track record (an unknown slug shows 404 on the page). */
function EducatorRecordRoute() {
  const { slug } = useParams();
  return slug ? <EducatorPage slug={slug} /> : <NotFoundPage />;
}

/** /educator/ideas/:ideaId/edit: the idea form in edit mode. */
function EditIdeaRoute() {
  const { ideaId } = useParams();
  const id = Number(ideaId);
  if (!Number.isInteger(id) || id < 1) return <NotFoundPage />;
  return <WithSession>{(s) => <IdeaFormPage {...s} ideaId={id} />}</WithSession>;
}

/** /customer/ideas/:ideaId: one idea (where an "idea closed" notification leads). */
function IdeaRoute() {
  const { ideaId } = useParams();
  const id = Number(ideaId);
  if (!Number.isInteger(id) || id < 1) return <NotFoundPage />;
  return <IdeaPage ideaId={id} />;
}

const markets: Market[] = ["forex", "crypto"];
const ideaTypes: IdeaType[] = ["leverage", "exchange"];
const MARKET_TITLE: Record<Market, string> = { forex: "Forex", crypto: "Crypto" };
const TYPE_TITLE: Record<IdeaType, string> = { leverage: "Leverage", exchange: "Exchange" };

const title = (text: string): RouteHandle => ({ title: text });
/**
 * The market chooser, with a customer's unseen counts and notification settings asked for at once (beside the
 * screen's code), so the badges arrive with the cards instead of a round trip after them.
 */
function MarketChooserRoute() {
  const { data: user } = useCurrentUser();
  return user?.role === "customer" ? <CustomerChooser /> : <WithSession>{(s) => <MarketChooserPage {...s} />}</WithSession>;
}
function CustomerChooser() {
  usePrefetchQuery(unseenCountsQueryOptions);
  // A market switched off in the notification settings says so on its card (and shows no count).
  const settings = useNotificationSettings();
  return <WithSession>{(s) => <MarketChooserPage {...s} notified={settings.data} />}</WithSession>;
}
const marketChooser = <MarketChooserRoute />;
/** The educator dashboard with the profile dialog mounted on its nav's profile button. */
function educatorDashboardWith(s: SessionProps) {
  return (
    <EducatorDashboardPage
      {...s}
      profileButton={<ProfileDialog onLogout={s.onLogout} loggingOut={s.loggingOut} />}
      trackRecord={<OwnTrackRecord educatorId={s.user.id} />}
    />
  );
}
const educatorDashboard = <WithSession>{educatorDashboardWith}</WithSession>;
const profile = <WithSession>{(s) => <ProfilePage {...s} extra={s.user.role === "customer" ? <RiskSettingsCard /> : <SetupsCard />} />}</WithSession>;

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <RedirectSignedIn />,
        children: [
          { path: "/", element: <CustomerLoginPage />, handle: title("Login") },
          { path: "/login", element: <CustomerLoginPage />, handle: title("Login") },
          { path: "/zinrai-educators-1", element: <EducatorLoginPage />, handle: title("Educator Login") },
          { path: "/admin/login", element: <AdminLoginPage />, handle: title("Admin Login") },
        ],
      },
      { path: "/invite/:token", element: <SetPasswordPage kind="invite" />, handle: title("Accept Invitation") },
      { path: "/reset/:token", element: <SetPasswordPage kind="reset" />, handle: title("Reset Password") },
      {
        element: <RequireAdmin />,
        children: [
          { path: "/admin", element: <WithSession>{(s) => <AdminPage {...s} />}</WithSession>, handle: title("Admin") },
          { path: "/admin/plans", element: <WithSession>{(s) => <AdminPlansPage {...s} />}</WithSession>, handle: title("Plans and access") },
        ],
      },
      { path: "/terms", element: <LegalPage kind="terms" />, handle: title("Terms of Use") },
      { path: "/privacy", element: <LegalPage kind="privacy" />, handle: title("Privacy Policy") },
      { path: "/proof", element: <ProofPage />, handle: title("How we keep the record honest") },
      { path: "/plans", element: <PlansPage />, handle: title("Plans") },
      { path: "/billing/done", element: <CheckoutDonePage />, handle: title("Checkout") },
      {
        element: <RequireAuth />,
        children: [
          { path: "/customer/dashboard", element: marketChooser, handle: title("Choose Your Market") },
          { path: "/customer", element: marketChooser, handle: title("Choose Your Market") },
          { path: "/category", element: marketChooser, handle: title("Choose Your Market") },
          ...markets.map((market) => ({
            path: `/customer/${market}`,
            element: <WithSession>{(s) => <MarketDashboardPage {...s} market={market} />}</WithSession>,
            handle: title(`${MARKET_TITLE[market]} Trade Ideas`),
          })),
          ...markets.flatMap((market) =>
            ideaTypes.map((ideaType) => ({
              path: `/customer/${market}/${ideaType}`,
              element: <HistoryPage market={market} ideaType={ideaType} />,
              handle: title(`${MARKET_TITLE[market]} ${TYPE_TITLE[ideaType]} Ideas History`),
            })),
          ),
          { path: "/customer/ideas/:ideaId", element: <IdeaRoute />, handle: title("Trade Idea") },
          { path: "/customer/chat", element: <CustomerChatPage />, handle: title("Messages") },
          { path: "/customer/educators", element: <EducatorsPage />, handle: title("Educators") },
          { path: "/customer/educators/:slug", element: <EducatorRecordRoute />, handle: title("Educator Track Record") },
          { path: "/customer/profile", element: profile, handle: title("Profile") },
          { path: "/customer/journal", element: <JournalPage />, handle: title("My Journal") },
          { path: "/customer/billing", element: <MyBillingPage />, handle: title("Billing") },
          {
            element: <RequireEducator />,
            children: [
              { path: "/educator", element: educatorDashboard, handle: title("Educator Dashboard") },
              { path: "/educator/dashboard", element: educatorDashboard, handle: title("Educator Dashboard") },
              {
                path: "/educator/ideas",
                element: <WithSession>{(s) => <MyTradeIdeasPage {...s} />}</WithSession>,
                handle: title("My Trade Ideas"),
              },
              {
                path: "/educator/ideas/new",
                element: <WithSession>{(s) => <IdeaFormPage {...s} />}</WithSession>,
                handle: title("Create Trade Idea"),
              },
              { path: "/educator/ideas/:ideaId/edit", element: <EditIdeaRoute />, handle: title("Edit Trade Idea") },
              { path: "/educator/chat", element: <EducatorChatPage />, handle: title("Educator Chat") },
              { path: "/educator/profile", element: profile, handle: title("Profile") },
              { path: "/educator/:slug", element: <EducatorSlugRoute />, handle: title("Educator Dashboard") },
              {
                path: "/test-notifications",
                element: <TestNotificationsPage ensureSubscribed={subscribeThisBrowser} />,
                handle: title("Push Notification Test"),
              },
            ],
          },
        ],
      },
      { path: "*", element: <NotFoundPage />, handle: title("404 Page Not Found") },
    ],
  },
];

const marketOf = (pathname: string) => /^\/customer\/(forex|crypto)\/?$/.exec(pathname)?.[1] as Market | undefined;
const isChooser = (pathname: string) => maybeSignedIn() && /^\/(customer|customer\/dashboard|category)\/?$/.test(pathname);

/**
 * A customer's first screens (the market chooser, a market's ideas) start loading their code, and a
 * market page its ideas, while the session is being checked, instead of after: the lazily loaded
 * screen would otherwise wait for `/api/auth/user`, and its list request for the screen's code.
 * A market page does so even without the signed-in hint (a session cookie set elsewhere, a browser
 * whose storage was cleared): only people who signed in open it, and for anyone else the cost is one
 * refused request before the redirect to /login. The login pages load nothing more for a visitor.
 *
 * In two steps, each called in a task of its own (main.tsx): the code, the largest downloads, first, then the data.
 * A request leaves only when the task that sends it ends, and building the data's requests and opening the kept
 * cache doubled that task (decision 0064).
 */
export function preloadFirstScreenCode(pathname = window.location.pathname) {
  if (marketOf(pathname)) {
    void loadMarketDashboard().catch(() => undefined);
    void loadCustomerExtras().catch(() => undefined);
    // Drawn in the page's first paint (the push prompt): asked for now rather than once the session's answer
    // has rendered as far as RequireAuth, one more round trip after the page's code.
    void loadSignedIn().catch(() => undefined);
  } else if (isChooser(pathname)) {
    void loadMarketChooser().catch(() => undefined);
  }
}

/** The second step of `preloadFirstScreenCode`: the first screen's data. */
export function preloadFirstScreen(client: QueryClient, pathname = window.location.pathname) {
  const market = marketOf(pathname);
  if (market) {
    // The kept cache is read while the page's code and data download, so that restoring ends before the page
    // renders instead of interrupting its render (decision 0063).
    persister.startRestore();
    void client.prefetchQuery(currentUserQueryOptions);
    void client.prefetchQuery(activeIdeasQueryOptions(market));
  } else if (isChooser(pathname)) {
    void client.prefetchQuery(unseenCountsQueryOptions);
  }
}

/**
 * The app's screens under a `<BrowserRouter>` (or `<MemoryRouter>` in tests). Declarative routing, not
 * a data router: nothing here uses loaders or actions, and leaving React Router's data-router core out
 * of the first download saves ~9 KB gzipped (decision 0030).
 */
export function AppRoutes() {
  const location = useLocation();
  const page = matchRoutes(routes, location)
    ?.map((match) => (match.route.handle as RouteHandle | undefined)?.title)
    .filter(Boolean)
    .at(-1);
  const element = useRoutes(routes, location);
  return (
    <>
      <DocumentTitle page={page} />
      {element}
    </>
  );
}
