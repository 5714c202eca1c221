import { messageOf } from '@agentdash/core/present';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { api } from '../../data/client';
import { useKeys } from '../../ui/keys';
import { useFindHighlight } from './find-highlight';
import { type Step, stepTo } from './rows';
import { useFind } from './use-find';
import type { SessionNav } from './use-session-nav';
import type { SessionView } from './use-session-view';

/**
 * Find in session (f, then n/N through the hits, highlighted in place), and a deep link to a call (a search hit):
 * open what leads to it, scroll there, mark the match, and count it as the current hit.
 */
export function useSessionFind(
  view: SessionView,
  nav: SessionNav,
  scrollRef: RefObject<HTMLDivElement | null>,
  call: string | undefined,
  find: string | undefined,
) {
  const findInput = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState(find ?? '');
  const found = useFind(view.detail?.session.id, query, view.liveVersion);
  const [hitPos, setHitPos] = useState(-1);
  const [showHits, setShowHits] = useState(find !== undefined && find !== '');
  const q = query.trim();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts before its first hit
  useEffect(() => setHitPos(-1), [q]);
  useFindHighlight(scrollRef, q);

  const { filtered, rowOf, jump } = nav;
  // Enter (n, N) pressed before the hits of the query typed are in: taken once they are. A link with a text to find
  // and no call (a search hit in a message or a thought) goes to its first hit as one naming a call goes to the call
  // (a review: it opened at the top, the hit found but not shown).
  const pendingStep = useRef<Step | undefined>(call === undefined && (find ?? '').trim() !== '' ? 1 : undefined);
  const goHit = (step: Step) => {
    if (q !== '' && found?.for !== q) {
      pendingStep.current = step;
      return;
    }
    const hits = found?.hits ?? [];
    if (hits.length === 0) return;
    const next = stepTo(hitPos, step, hits.length);
    const hit = hits[next];
    if (!hit) return;
    if (filtered && rowOf(hit.index) < 0) nav.setErrorsOnly(false);
    setHitPos(next);
    nav.setCursor(filtered && rowOf(hit.index) >= 0 ? rowOf(hit.index) : hit.index);
    jump({ index: hit.index, expand: hit.expand, callId: hit.callId, text: q });
  };
  useKeys({ n: () => goHit(1), N: () => goHit(-1), f: () => findInput.current?.focus() });

  const sessionId = view.detail?.session.id;
  // a linked call the session cannot place (another session's, or one it no longer holds): said, not silent
  const [missingCall, setMissingCall] = useState<{ readonly call: string; readonly why: string } | undefined>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: run once per target when the session is known
  useEffect(() => {
    setMissingCall(undefined);
    if (!call || !sessionId) return;
    let cancelled = false;
    api
      .locate(sessionId, call)
      .then((loc) => {
        if (!cancelled) jump({ index: loc.index, expand: loc.expand, callId: call, text: find });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        // the mark of the call linked before goes: the address names another now
        nav.unfocus();
        setMissingCall({ call, why: messageOf(error) });
      });
    return () => {
      cancelled = true;
    };
  }, [call, sessionId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per result
  useEffect(() => {
    const step = pendingStep.current;
    if (step !== undefined && found?.for === q) {
      pendingStep.current = undefined;
      goHit(step);
    }
    if (call && found && hitPos < 0) {
      const at = found.hits.findIndex((h) => h.callId === call);
      if (at >= 0) setHitPos(at);
    }
  }, [found]);

  /** The find half of the nav bar. */
  return {
    missingCall,
    findInput,
    query,
    onQuery: setQuery,
    found: q === '' ? undefined : found,
    hitPos,
    onHit: goHit,
    showHits,
    onShowHits: setShowHits,
  };
}
