/** Light or dark as the page shows it: a `data-theme` on <html> (settings) wins over the OS. */
import { useSyncExternalStore } from "react";

const media = () => window.matchMedia("(prefers-color-scheme: dark)");

function current(): "light" | "dark" {
  const forced = document.documentElement.dataset.theme;
  if (forced === "light" || forced === "dark") return forced;
  return media().matches ? "dark" : "light";
}

function subscribe(notify: () => void): () => void {
  const m = media();
  m.addEventListener("change", notify);
  const observer = new MutationObserver(notify);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => {
    m.removeEventListener("change", notify);
    observer.disconnect();
  };
}

export function useColorScheme(): "light" | "dark" {
  return useSyncExternalStore(subscribe, current);
}
