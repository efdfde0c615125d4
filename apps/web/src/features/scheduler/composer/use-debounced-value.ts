import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `delayMs` (compared by JSON, for request bodies). */
export function useDebouncedValue<TValue>(value: TValue, delayMs: number): TValue {
  const [settled, setSettled] = useState(value);
  const serialized = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(serialized) as TValue), delayMs);
    return () => clearTimeout(timer);
  }, [serialized, delayMs]);
  return settled;
}
