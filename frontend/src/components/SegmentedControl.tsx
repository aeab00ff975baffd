import { useId } from "react";
import { cn } from "./cn";

/** A labelled group of radio buttons styled as a segmented control. */
export function SegmentedControl<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  disabled,
}: {
  legend: string;
  name: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <fieldset disabled={disabled} className="disabled:opacity-60">
      <legend className="mb-1.5 block text-sm font-medium text-fg">{legend}</legend>
      <div className="grid auto-cols-fr grid-flow-col gap-1 rounded-xl border border-line bg-field p-1">
        {options.map((option) => {
          const optionId = `${id}-${option.value}`;
          const checked = option.value === value;
          return (
            <label
              key={option.value}
              htmlFor={optionId}
              className={cn(
                "relative flex h-11 cursor-pointer sm:h-10 items-center justify-center rounded-lg text-sm font-semibold transition-colors",
                "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-emerald-400",
                checked ? "bg-emerald-500 text-slate-950 shadow" : "text-muted hover:bg-card-hover hover:text-fg",
              )}
            >
              <input
                id={optionId}
                type="radio"
                name={name}
                value={option.value}
                checked={checked}
                onChange={() => onChange(option.value)}
                className="absolute inset-0 m-0 cursor-pointer appearance-none opacity-0"
              />
              {option.label}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
