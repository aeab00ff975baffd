import { Home } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "./Button";
import { ThemeToggle } from "./ThemeToggle";

export function NotFoundPage() {
  return (
    <main className="relative flex min-h-dvh flex-col items-center justify-center gap-6 bg-surface px-6 text-center">
      <ThemeToggle className="absolute right-4 top-4" />
      <p className="text-7xl font-black text-emerald-700 dark:text-emerald-500/80">404</p>
      <h1 className="text-2xl font-bold text-fg">404 Page Not Found</h1>
      <p className="max-w-sm text-muted">The page you are looking for does not exist or has been moved.</p>
      <Link to="/" className={buttonClasses("primary", "md")}>
        <Home className="h-4 w-4" aria-hidden="true" />
        Go home
      </Link>
    </main>
  );
}
