import { useEffect, useState } from 'react';

/** A hook over one shared answer, and the answer itself (`get`) for code outside components. */
export interface SharedOnce<T> {
  (): T | undefined;
  /** The shared answer: asked on the first call, then the same promise until a failure (asked again after one). */
  readonly get: () => Promise<T>;
}

/**
 * One request per page load, shared by every component that asks (`ask` runs once however many components mount).
 * A failed request answers `failed` to those waiting for it and is forgotten: the next component that mounts asks
 * again (the server may be back). The hook is undefined until the answer comes.
 *
 * @example
 * export const useAgents = sharedOnce(() => api.agents().then((r) => r.agents), []);
 */
export function sharedOnce<T>(ask: () => Promise<T>, failed: T): SharedOnce<T> {
  let asked: Promise<T> | undefined;
  const get = (): Promise<T> => {
    asked ??= ask().catch(() => {
      asked = undefined;
      return failed;
    });
    return asked;
  };
  function useShared(): T | undefined {
    const [value, setValue] = useState<T | undefined>(undefined);
    useEffect(() => {
      let current = true;
      void get().then((found) => {
        if (current) setValue(found);
      });
      return () => {
        current = false;
      };
    }, []);
    return value;
  }
  return Object.assign(useShared, { get });
}
