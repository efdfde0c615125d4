import {
  mediaRejectedSchema,
  type MediaRejectionReason,
  type UploadPurpose,
} from '@cadence/shared/schemas/media';
import { uploadFileNameSchema } from '@cadence/shared/schemas/upload';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type * as tus from 'tus-js-client';
import { usePublicConfig } from './public-config.ts';
import { remainingMs, trackTransfer, type TransferEstimate } from './upload-estimate.ts';

export type UploadStatus = 'uploading' | 'done' | 'error';

export interface UploadItem {
  /** Stable key for React lists. */
  key: string;
  file: File;
  /** An object URL for a local preview; released when the item is removed. */
  previewUrl: string;
  /** 0..1 */
  progress: number;
  /** What is sent of what, and the time left once it can be estimated. */
  transfer: UploadTransfer;
  status: UploadStatus;
  /** Set once the server accepted the video. */
  mediaId: string | null;
  /** Why it stopped (translated under media.rejected.*); null: the connection failed for good. */
  rejection: UploadProblem[] | null;
  /**
   * The limit this upload ran into, for the message: the largest file accepted ('too large'), or
   * the user's storage quota ('quota exceeded').
   */
  maxBytes: number | null;
  failed: boolean;
}

export interface UploadTransfer {
  sentBytes: number;
  totalBytes: number;
  /** Null until the rate is known well enough (a few seconds and bytes in: upload-estimate.ts). */
  msLeft: number | null;
}

/**
 * Why an upload stopped: the server's reasons for refusing the file, or what its refusal of the
 * request itself means for the person (tus answers those with a status and a plain-text body):
 * signed out meanwhile (401), the unfinished upload expired or was removed (404, 410), or another
 * tab or window still working on it once the retries ran out (409, 423).
 */
export type UploadProblem = MediaRejectionReason | 'signed_out' | 'upload_gone' | 'upload_busy';

/** What a refusal without a body of ours means, by status; anything else is a network problem. */
const problemByStatus: Partial<Record<number, UploadProblem>> = {
  // A request the server does not take (tus protocol), or another person's upload address.
  400: 'invalid_upload',
  401: 'signed_out',
  403: 'invalid_upload',
  404: 'upload_gone',
  409: 'upload_busy',
  410: 'upload_gone',
  // Larger than MAX_UPLOAD_BYTES (declared at creation, or sent).
  413: 'file_too_big',
  423: 'upload_busy',
};

let counter = 0;

function mediaIdFromUrl(url: string | null): string | null {
  return url ? (url.split('/').pop() ?? null) : null;
}

/**
 * tus-js-client (about 18 KB compressed, with its URL and base64 helpers) loads with the first
 * upload of the page, not with every screen that can upload: /scheduler, /stories and /memes drew
 * nothing before it had arrived (docs/decisions/037-first-load.md). A failed load is
 * tried again by the next upload.
 */
let tusClient: Promise<typeof tus> | null = null;
function loadTus(): Promise<typeof tus> {
  tusClient ??= import('tus-js-client').catch((error: unknown) => {
    tusClient = null;
    throw error;
  });
  return tusClient;
}

/** tus's error for a request the server answered (tus.DetailedError), read without loading tus. */
function serverResponse(error: unknown): tus.HttpResponse | null {
  if (!(error instanceof Error) || !('originalResponse' in error)) return null;
  return (error as tus.DetailedError).originalResponse;
}

/** TikTok takes files of 4 GB at most, whatever this server accepts. */
const TIKTOK_MAX_BYTES = 4 * 1024 ** 3;

/**
 * Why the server refused an upload, from the response tus-js-client reports (null: no reason
 * given), with the limit its sentence names when the server said it: the quota, or the largest
 * file it takes. The server's figure wins over the page's, which may not have loaded yet.
 */
export function rejectionFrom(
  error: unknown,
): { reasons: UploadProblem[]; maxBytes?: number | undefined } | null {
  const response = serverResponse(error);
  if (!response) return null;
  // 400 (file name), 413 (quota, file size) and 422 (not a video, TikTok's limits) say why in the body.
  try {
    const parsed = mediaRejectedSchema.safeParse(JSON.parse(response.getBody()));
    if (parsed.success) {
      const { reasons, quotaBytes, maxBytes } = parsed.data;
      const limit = maxBytes ?? quotaBytes;
      return limit === undefined ? { reasons } : { reasons, maxBytes: limit };
    }
  } catch {
    // Not JSON: tus's own plain-text answers.
  }
  const problem = problemByStatus[response.getStatus()];
  return problem ? { reasons: [problem] } : null;
}

/**
 * The tus upload URLs an upload of this page is sending to. Two uploads of one file (the same
 * video in both panels of the story creator, or chosen twice) have the same fingerprint, so the
 * second found the first's URL among the uploads to resume and sent to it too: one of the two then
 * failed as "expired or removed". An upload resumes only a URL no other upload here is using.
 */
const urlsInUse = new Map<string, tus.Upload>();

/**
 * The upload no longer sends: the URLs it held may be resumed again (they stay stored when
 * unfinished). Only its own: another upload may have resumed a URL this one gave up.
 */
function release(upload: tus.Upload): void {
  for (const [url, owner] of urlsInUse) if (owner === upload) urlsInUse.delete(url);
}

/** What the hook's uploads share with the tus callbacks of each one. */
interface SendContext {
  purpose: UploadPurpose;
  /** The tus uploads running, by item key; an item missing here was removed meanwhile. */
  uploads: Map<string, tus.Upload>;
  update: (key: string, patch: Partial<UploadItem>) => void;
  /** The page's latest `onAccepted`. */
  onAccepted: RefObject<((item: UploadItem) => void) | undefined>;
}

/**
 * Sends `item` with the loaded tus client: resumes an unfinished upload of the same file that no
 * other upload here is using, or starts a new one; reports progress, success and refusal.
 */
function sendWithTus(client: typeof tus, item: UploadItem, context: SendContext): void {
  const { purpose, uploads, update } = context;
  // The rate measured so far, for the time left.
  let estimate: TransferEstimate | null = null;
  const upload = new client.Upload(item.file, {
    endpoint: '/api/uploads',
    chunkSize: 50 * 1024 * 1024,
    retryDelays: [0, 1000, 3000, 5000, 10000],
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    metadata: { filename: item.file.name, filetype: item.file.type, purpose },
    // A refusal (422: not a video, too long…) or a missing session is final; network trouble is not.
    onShouldRetry: (error) => {
      const status =
        error instanceof client.DetailedError ? (error.originalResponse?.getStatus() ?? 0) : 0;
      return status === 0 || status >= 500 || status === 409 || status === 423;
    },
    onUploadUrlAvailable: () => {
      // A new upload (also when a resume found its old one gone): this is the URL it uses.
      release(upload);
      if (upload.url !== null) urlsInUse.set(upload.url, upload);
    },
    onProgress: (sent, total) => {
      estimate = trackTransfer(estimate, performance.now(), sent);
      update(item.key, {
        progress: total > 0 ? sent / total : 0,
        transfer: { sentBytes: sent, totalBytes: total, msLeft: remainingMs(estimate, total) },
      });
    },
    onSuccess: () => {
      release(upload);
      const mediaId = mediaIdFromUrl(upload.url);
      update(item.key, { status: 'done', progress: 1, mediaId });
      context.onAccepted.current?.({ ...item, status: 'done', progress: 1, mediaId });
    },
    onError: (error) => {
      release(upload);
      const rejection = rejectionFrom(error);
      update(item.key, {
        status: 'error',
        rejection: rejection?.reasons ?? null,
        maxBytes: rejection?.maxBytes ?? item.maxBytes,
        failed: true,
      });
    },
  });
  uploads.set(item.key, upload);
  void upload.findPreviousUploads().then((previous) => {
    // Removed (or the page left) while looking: nothing to send.
    if (uploads.get(item.key) !== upload) return;
    const resumable = previous.find(
      (candidate) => candidate.uploadUrl !== null && !urlsInUse.has(candidate.uploadUrl),
    );
    if (resumable?.uploadUrl) {
      // Taken at once: another upload of the same file looking now starts a new one.
      urlsInUse.set(resumable.uploadUrl, upload);
      upload.resumeFromPreviousUpload(resumable);
    }
    upload.start();
  });
}

/** Why `item` is refused before sending a byte, as the server would refuse it; null: it may go. */
function refusalBeforeSending(item: UploadItem): UploadProblem | null {
  // The server would answer 413 anyway.
  if (item.maxBytes !== null && item.file.size > item.maxBytes) return 'file_too_big';
  // The server's own check (it would answer 400): control characters, over 255 characters.
  // A nameless file is sent as 'video'.
  if (item.file.name !== '' && !uploadFileNameSchema.safeParse(item.file.name).success)
    return 'invalid_file_name';
  return null;
}

/** A new item for `file`, sending from the start. */
function newUploadItem(file: File, maxBytes: number | null): UploadItem {
  return {
    key: `upload-${++counter}`,
    file,
    previewUrl: URL.createObjectURL(file),
    progress: 0,
    transfer: { sentBytes: 0, totalBytes: file.size, msLeft: null },
    status: 'uploading',
    mediaId: null,
    rejection: null,
    maxBytes,
    failed: false,
  };
}

/** The largest file `purpose` may upload: the server's limit, and TikTok's for a post. */
function useMaxUploadBytes(purpose: UploadPurpose): number | null {
  const serverMax = usePublicConfig().data?.maxUploadBytes ?? null;
  if (serverMax === null) return null;
  return purpose === 'post' ? Math.min(serverMax, TIKTOK_MAX_BYTES) : serverMax;
}

/** The items in React state, and as of the last change in `latest`; `update` patches one. */
function useUploadItems() {
  const [items, setItemsState] = useState<UploadItem[]>([]);
  // The items as of the last change, read by remove/abandon/clear: their side effects (aborting,
  // deleting) run once, here and now, not inside a state updater React may call twice or, when
  // the page is leaving, never.
  const latest = useRef<UploadItem[]>([]);
  const setItems = useCallback((next: (current: UploadItem[]) => UploadItem[]) => {
    latest.current = next(latest.current);
    setItemsState(latest.current);
  }, []);
  const update = useCallback(
    (key: string, patch: Partial<UploadItem>) => {
      setItems((current) =>
        current.map((item) => (item.key === key ? { ...item, ...patch } : item)),
      );
    },
    [setItems],
  );
  return { items, latest, setItems, update };
}

/**
 * The sending side: `start` checks an item and sends it once tus has loaded, `stopSending`
 * stops one; leaving the page stops them all.
 */
function useUploadSending(
  purpose: UploadPurpose,
  latest: RefObject<UploadItem[]>,
  update: (key: string, patch: Partial<UploadItem>) => void,
  onAccepted: RefObject<((item: UploadItem) => void) | undefined>,
) {
  const uploads = useRef(new Map<string, tus.Upload>());

  /** Sends `item` with the loaded tus client, unless it was removed or cleared while tus loaded. */
  const send = useCallback(
    (client: typeof tus, item: UploadItem) => {
      const wanted = latest.current.some(
        (current) => current.key === item.key && current.status === 'uploading',
      );
      if (!wanted) return;
      sendWithTus(client, item, { purpose, uploads: uploads.current, update, onAccepted });
    },
    [latest, update, purpose, onAccepted],
  );

  const start = useCallback(
    (item: UploadItem) => {
      const refusal = refusalBeforeSending(item);
      if (refusal !== null) {
        update(item.key, { status: 'error', rejection: [refusal], failed: true });
        return;
      }
      void loadTus().then(
        (client) => send(client, item),
        // The client's file did not arrive (offline, or a new version replaced it): shown as a
        // connection that failed for good; choosing the file again loads the client anew.
        () => update(item.key, { status: 'error', rejection: null, failed: true }),
      );
    },
    [send, update],
  );

  /**
   * Stops sending `item` if it still is (tus DELETE: the unfinished upload is not kept) and forgets
   * its upload. A finished upload is already gone from the tus server; terminating it again
   * answers 404, which tus reports as a rejected promise.
   */
  const stopSending = useCallback((item: UploadItem) => {
    const upload = uploads.current.get(item.key);
    if (upload) release(upload);
    if (item.status === 'uploading') void upload?.abort(true).catch(() => undefined);
    uploads.current.delete(item.key);
  }, []);

  useEffect(() => {
    const running = uploads.current;
    return () => {
      running.forEach((upload) => {
        release(upload);
        void upload.abort();
      });
      // An upload still looking for one to resume then finds itself gone, and does not start.
      running.clear();
    };
  }, []);

  return { start, stopSending };
}

/**
 * Resumable uploads to /api/uploads (tus). Each file shows its progress; a dropped connection or
 * a server restart resumes where it stopped (tus-js-client keeps the upload URL per file in
 * localStorage). A finished upload is a media id the scheduler, stories and memes can use.
 * `purpose` says which limits the server applies: TikTok's for 'post' (the default), any readable
 * video for 'source' (story and meme inputs).
 */
export function useVideoUploads(
  options: { purpose?: UploadPurpose; onAccepted?: (item: UploadItem) => void } = {},
) {
  const purpose = options.purpose ?? 'post';
  const maxBytes = useMaxUploadBytes(purpose);
  const { items, latest, setItems, update } = useUploadItems();
  const onAccepted = useRef(options.onAccepted);
  onAccepted.current = options.onAccepted;
  const { start, stopSending } = useUploadSending(purpose, latest, update, onAccepted);

  const add = useCallback(
    (files: Iterable<File>) => {
      const added = [...files].map((file) => newUploadItem(file, maxBytes));
      setItems((current) => [...current, ...added]);
      added.forEach(start);
      return added;
    },
    [start, maxBytes, setItems],
  );

  /** Stops the upload, releases the preview URL and deletes the stored video if it finished. */
  const remove = useCallback(
    (key: string) => {
      const item = latest.current.find((candidate) => candidate.key === key);
      if (!item) return;
      stopSending(item);
      URL.revokeObjectURL(item.previewUrl);
      if (item.mediaId)
        void fetch(`/api/media/${encodeURIComponent(item.mediaId)}`, { method: 'DELETE' });
      setItems((current) => current.filter((candidate) => candidate.key !== key));
    },
    [latest, stopSending, setItems],
  );

  /** Removes the videos still sending, as `remove` does; finished ones stay. */
  const abandon = useCallback(() => {
    latest.current
      .filter((item) => item.status === 'uploading')
      .forEach((item) => remove(item.key));
  }, [latest, remove]);

  /**
   * Forgets the items (after a successful schedule) without deleting their media. One still
   * sending is stopped as `remove` stops it: left running, it would go on sending for nothing.
   */
  const clear = useCallback(() => {
    latest.current.forEach((item) => {
      stopSending(item);
      URL.revokeObjectURL(item.previewUrl);
    });
    setItems(() => []);
  }, [latest, stopSending, setItems]);

  return {
    items,
    add,
    remove,
    abandon,
    clear,
    uploading: items.some((item) => item.status === 'uploading'),
    doneIds: items.flatMap((item) =>
      item.status === 'done' && item.mediaId ? [item.mediaId] : [],
    ),
  };
}

/** What `useVideoUploads` gives: one page's (or one panel's) uploads. */
export type VideoUploads = ReturnType<typeof useVideoUploads>;

/**
 * While `uploading` (what `useVideoUploads` says, of one or more of them), closing or reloading
 * the tab asks first: the page's uploads stop with it (they resume only if the file is chosen
 * again). The browser shows its own question; the text cannot be ours.
 */
export function useUnloadWarning(uploading: boolean): void {
  useEffect(() => {
    if (!uploading) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Chromium before 119 and Safari still ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [uploading]);
}
