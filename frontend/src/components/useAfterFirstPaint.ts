import { useEffect, useState } from "react";

/**
 * False while a component first renders and until the browser has painted it, then true: for work that may
 * wait one frame so that the first paint comes sooner. (An animation frame runs just before a paint; a task
 * queued from it runs after that paint.)
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let task: number | undefined;
    const frame = window.requestAnimationFrame(() => {
      task = window.setTimeout(() => setPainted(true));
    });
    return () => {
      window.cancelAnimationFrame(frame);
      window.clearTimeout(task);
    };
  }, []);
  return painted;
}
