import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDropSearchParams } from '../../../lib/drop-search-params.ts';
import { callbackParams, parseCallbackOutcome, type CallbackOutcome } from '../callback-outcome.ts';

/**
 * The OAuth callback's outcome, read once from the URL. The parameters are then removed (replace,
 * not push) so that a reload or a Back does not show the banner again.
 */
export function useCallbackOutcome(): [CallbackOutcome | null, () => void] {
  const [searchParams] = useSearchParams();
  const [outcome, setOutcome] = useState(() => parseCallbackOutcome(searchParams));

  useEffect(() => {
    if (!callbackParams.some((name) => searchParams.has(name))) return;
    const parsed = parseCallbackOutcome(searchParams);
    if (parsed) setOutcome(parsed);
  }, [searchParams]);
  useDropSearchParams(callbackParams);

  const dismiss = useCallback(() => setOutcome(null), []);
  return [outcome, dismiss];
}
