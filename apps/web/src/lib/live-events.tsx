import { useAfterFirstPaint } from './after-first-paint.ts';
import {
  createContext,
  useContext,
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type ReactNode,
} from 'react';

type Listener = (data: unknown) => void;

interface LiveEvents {
  connected: boolean;
  subscribe: (event: string, listener: Listener) => () => void;
}

const LiveEventsContext = createContext<LiveEvents | null>(null);

/**
 * One server-sent event stream per signed-in tab (GET /api/posts/events): post changes for the
 * scheduler, new notifications for the header's bell. Features subscribe by event name; one
 * connection serves them all.
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const listeners = useRef(new Map<string, Set<Listener>>());
  const [connected, setConnected] = useState(false);
  const [source, setSource] = useState<EventSource | null>(null);
  // Opened once the first screen is painted: what it missed meanwhile, its subscribers fetch on
  // connecting (`onConnect`).
  const afterFirstPaint = useAfterFirstPaint();

  useEffect(() => {
    if (!afterFirstPaint || typeof EventSource === 'undefined') return;
    const stream = new EventSource('/api/posts/events');
    setSource(stream);
    const onOpen = () => setConnected(true);
    const onError = () => setConnected(stream.readyState === EventSource.OPEN);
    stream.addEventListener('open', onOpen);
    stream.addEventListener('error', onError);
    return () => {
      stream.removeEventListener('open', onOpen);
      stream.removeEventListener('error', onError);
      stream.close();
      setSource(null);
      setConnected(false);
    };
  }, [afterFirstPaint]);

  // Each event name is listened to once on the stream, and handed to every subscriber.
  const [events, setEvents] = useState<readonly string[]>([]);
  useEffect(() => {
    if (!source) return;
    const handlers = events.map((name) => {
      const handler = (event: MessageEvent<unknown>) => {
        let data: unknown;
        try {
          data = typeof event.data === 'string' ? JSON.parse(event.data) : null;
        } catch {
          return;
        }
        for (const listener of listeners.current.get(name) ?? []) listener(data);
      };
      source.addEventListener(name, handler);
      return [name, handler] as const;
    });
    return () => {
      for (const [name, handler] of handlers) source.removeEventListener(name, handler);
    };
  }, [source, events]);

  const [value] = useState<Omit<LiveEvents, 'connected'>>(() => ({
    subscribe: (event, listener) => {
      const set = listeners.current.get(event) ?? new Set<Listener>();
      set.add(listener);
      listeners.current.set(event, set);
      setEvents((current) => (current.includes(event) ? current : [...current, event]));
      return () => set.delete(listener);
    },
  }));

  return (
    <LiveEventsContext.Provider value={{ ...value, connected }}>
      {children}
    </LiveEventsContext.Provider>
  );
}

/**
 * Calls `listener` with each `event` of the stream (its JSON data, unparsed by schema) and
 * `onConnect` each time the stream (re)opens. Returns whether the stream is connected: callers
 * poll while it is not. Outside a provider (tests), nothing arrives and it says disconnected.
 */
export function useLiveEvent(
  event: string,
  listener: (data: unknown) => void,
  onConnect?: () => void,
): boolean {
  const live = useContext(LiveEventsContext);
  const onEvent = useEffectEvent(listener);
  const onOpen = useEffectEvent(() => onConnect?.());
  const connected = live?.connected ?? false;
  const subscribe = live?.subscribe;
  useEffect(() => {
    if (!subscribe) return;
    return subscribe(event, (data) => onEvent(data));
  }, [subscribe, event]);
  useEffect(() => {
    if (connected) onOpen();
  }, [connected]);
  return connected;
}
