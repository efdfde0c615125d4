import path from 'node:path';

/**
 * What ffmpeg and ffprobe may do with a file a user gave us (docs/decisions/012-media-allow-list.md).
 * A crafted file must not make them open anything but that file: no playlists (hls, dash), no
 * concat scripts, no image sequences, no network, no `data:`/`subfile:`/`concat:` URLs.
 *
 * - Demuxers: ffmpeg's container readers that never open another file or URL. `mov` also reads
 *   MP4/M4V/3GP (its external data references stay off: `enable_drefs` defaults to 0); `matroska`
 *   also reads WebM; `mpegts` also reads M2TS/MTS (camcorders); `avi` (older cameras, screen
 *   recorders). TikTok itself takes MP4, MOV and WebM; the others are for story and meme sources.
 * - Protocols: `file` only, and the input is always named `file:<absolute path>`, so a path that
 *   looks like a URL is still a path.
 *
 * The whitelists are copied by ffmpeg into every nested demuxer it opens (avi's GAB2 subtitles),
 * so a container wrapping a playlist is refused like the playlist itself.
 */
export const ALLOWED_DEMUXERS = ['mov', 'matroska', 'mpegts', 'avi'] as const;
export type AllowedDemuxer = (typeof ALLOWED_DEMUXERS)[number];

export const ALLOWED_PROTOCOLS = ['file'] as const;

/**
 * The demuxer of ffprobe's `format_name` (which lists a demuxer's aliases, e.g.
 * 'mov,mp4,m4a,3gp,3g2,mj2' or 'matroska,webm'), or null when it is not allowed.
 */
export function allowedDemuxerOf(formatName: string): AllowedDemuxer | null {
  const names = formatName.split(',');
  return ALLOWED_DEMUXERS.find((demuxer) => names.includes(demuxer)) ?? null;
}

/**
 * ffmpeg/ffprobe arguments that open `filePath` as an input under the allow-list:
 * `-protocol_whitelist file -format_whitelist mov,… [-f <demuxer>] -i file:/abs/path`. Options
 * of that input (`-ss`, `-t`, `-stream_loop`) go before them. Pass the demuxer the probe found
 * when it is known, so the file is not sniffed again.
 */
export function mediaInputArgs(filePath: string, demuxer?: AllowedDemuxer | null): string[] {
  return [
    '-protocol_whitelist',
    ALLOWED_PROTOCOLS.join(','),
    '-format_whitelist',
    ALLOWED_DEMUXERS.join(','),
    ...(demuxer ? ['-f', demuxer] : []),
    '-i',
    `file:${path.resolve(filePath)}`,
  ];
}
