// Pages by the URL's hash (`#/jobs/shop/report?tenant=acme`), so that the host serves one file and
// any page has a link of its own.
import { useEffect, useState } from "preact/hooks";

export interface Route {
  readonly path: readonly string[];
  readonly params: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, "");
  const at = hash.indexOf("?");
  const path = (at < 0 ? hash : hash.slice(0, at)).split("/").filter((p) => p !== "").map(decodeURIComponent);
  return { path, params: new URLSearchParams(at < 0 ? "" : hash.slice(at + 1)) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    addEventListener("hashchange", changed);
    return () => removeEventListener("hashchange", changed);
  }, []);
  return route;
}

/** `#/a/b?x=1` from segments and parameters. */
export function href(path: readonly string[], params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== "") search.set(key, value);
  const text = search.toString();
  return `#/${path.map(encodeURIComponent).join("/")}${text === "" ? "" : `?${text}`}`;
}

export function go(path: readonly string[], params: Record<string, string | undefined> = {}): void {
  location.hash = href(path, params);
}
