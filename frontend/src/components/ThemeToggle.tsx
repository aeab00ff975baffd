import { Moon, Sun } from "lucide-react";
import { useState } from "react";
import { readTheme, saveTheme, type Theme } from "../lib/theme";
import { cn } from "./cn";

export function ThemeToggle({ className }: { className?: string }) {
  const [theme, setTheme] = useState<Theme>(readTheme);
  const toggle = () => {
    const next: Theme = theme === "dark" ? "light" : "dark";
    saveTheme(next);
    setTheme(next);
  };
  return (
    <button
      type="button"
      aria-label="Toggle theme"
      title={theme === "dark" ? "Switch to light theme" : "Switch to dark theme"}
      onClick={toggle}
      className={cn(
        "inline-flex h-11 w-11 items-center sm:h-10 sm:w-10 justify-center rounded-xl border border-line bg-card text-muted transition-colors hover:text-fg",
        "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400",
        className,
      )}
    >
      {theme === "dark" ? <Sun className="h-5 w-5" aria-hidden="true" /> : <Moon className="h-5 w-5" aria-hidden="true" />}
    </button>
  );
}
