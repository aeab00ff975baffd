import { createBrowserRouter, useParams, type RouteObject } from "react-router";
import { NotFoundPage } from "../components/NotFoundPage";
import { FullPageSpinner } from "../components/Spinner";
import { CustomerLoginPage } from "../features/auth/CustomerLoginPage";
import { EducatorLoginPage } from "../features/auth/EducatorLoginPage";
import { LegalPage } from "../features/auth/LegalPage";
import { useAppConfig } from "../features/auth/useAppConfig";
import { CustomerChatPage } from "../features/chat/CustomerChatPage";
import { EducatorChatPage } from "../features/chat/EducatorChatPage";
import { EducatorDashboardPage } from "../features/ideas/EducatorDashboardPage";
import { HistoryPage } from "../features/ideas/HistoryPage";
import { MarketChooserPage } from "../features/ideas/MarketChooserPage";
import { MarketDashboardPage } from "../features/ideas/MarketDashboardPage";
import { MyTradeIdeasPage } from "../features/ideas/MyTradeIdeasPage";
import { NewIdeaPage } from "../features/ideas/NewIdeaPage";
import { TestNotificationsPage } from "../features/notifications/TestNotificationsPage";
import { ProfileDialog } from "../features/profile/ProfileDialog";
import { ensurePushSubscription } from "../features/pwa/push";
import { ProfilePage } from "../features/profile/ProfilePage";
import type { IdeaType, Market, SessionProps } from "../lib/session";
import { RequireAuth, RequireEducator } from "./guards";
import { RootLayout } from "./layouts";
import { WithSession } from "./session";

/** /educator/:slug exists only for the slugs the server lists in /api/config. */
function EducatorSlugRoute() {
  const { slug } = useParams();
  const config = useAppConfig();
  if (config.isPending) return <FullPageSpinner />;
  if (!slug || !config.data?.educatorSlugs.includes(slug)) return <NotFoundPage />;
  return <WithSession>{educatorDashboardWith}</WithSession>;
}

/** The push test subscribes the educator's own browser first (asking for permission if needed). */
const subscribeThisBrowser = () => ensurePushSubscription({ ask: true });

const markets: Market[] = ["forex", "crypto"];
const ideaTypes: IdeaType[] = ["leverage", "exchange"];
const marketChooser = <WithSession>{(s) => <MarketChooserPage {...s} />}</WithSession>;
/** The educator dashboard with the profile dialog mounted on its nav's profile button. */
function educatorDashboardWith(s: SessionProps) {
  return <EducatorDashboardPage {...s} profileButton={<ProfileDialog onLogout={s.onLogout} loggingOut={s.loggingOut} />} />;
}
const educatorDashboard = <WithSession>{educatorDashboardWith}</WithSession>;

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: "/", element: <CustomerLoginPage /> },
      { path: "/login", element: <CustomerLoginPage /> },
      { path: "/zinrai-educators-1", element: <EducatorLoginPage /> },
      { path: "/terms", element: <LegalPage kind="terms" /> },
      { path: "/privacy", element: <LegalPage kind="privacy" /> },
      {
        element: <RequireAuth />,
        children: [
          { path: "/customer/dashboard", element: marketChooser },
          { path: "/customer", element: marketChooser },
          { path: "/category", element: marketChooser },
          ...markets.map((market) => ({
            path: `/customer/${market}`,
            element: <WithSession>{(s) => <MarketDashboardPage {...s} market={market} />}</WithSession>,
          })),
          ...markets.flatMap((market) =>
            ideaTypes.map((ideaType) => ({
              path: `/customer/${market}/${ideaType}`,
              element: <HistoryPage market={market} ideaType={ideaType} />,
            })),
          ),
          { path: "/customer/chat", element: <CustomerChatPage /> },
          { path: "/customer/profile", element: <WithSession>{(s) => <ProfilePage {...s} />}</WithSession> },
          {
            element: <RequireEducator />,
            children: [
              { path: "/educator", element: educatorDashboard },
              { path: "/educator/dashboard", element: educatorDashboard },
              { path: "/educator/ideas", element: <WithSession>{(s) => <MyTradeIdeasPage {...s} />}</WithSession> },
              { path: "/educator/ideas/new", element: <WithSession>{(s) => <NewIdeaPage {...s} />}</WithSession> },
              { path: "/educator/chat", element: <EducatorChatPage /> },
              { path: "/educator/profile", element: <WithSession>{(s) => <ProfilePage {...s} />}</WithSession> },
              { path: "/educator/:slug", element: <EducatorSlugRoute /> },
              { path: "/test-notifications", element: <TestNotificationsPage ensureSubscribed={subscribeThisBrowser} /> },
            ],
          },
        ],
      },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
