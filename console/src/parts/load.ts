// A page's data from the API: loading, loaded or the server's error, reloaded when its key changes.
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "../api.js";

export type Loaded<T> = { readonly state: "loading" } | { readonly state: "ok"; readonly data: T } | { readonly state: "error"; readonly error: ApiError };

export function useLoad<T>(load: () => Promise<T>, key: string): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setLoaded((before) => (before.state === "ok" ? before : { state: "loading" }));
    load().then(
      (data) => current && setLoaded({ state: "ok", data }),
      (error: unknown) => current && setLoaded({ state: "error", error: error instanceof ApiError ? error : new ApiError(0, "Error", String(error)) }),
    );
    return () => {
      current = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return [loaded, reload];
}
