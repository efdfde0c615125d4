/** What ffprobe tells us about an uploaded or generated video, normalised. */
export interface VideoProbe {
  /** ffprobe's format_name, e.g. 'mov,mp4,m4a,3gp,3g2,mj2' or 'matroska,webm'. */
  container: string;
  videoCodec: string;
  /** Coded size, before rotation. */
  width: number;
  height: number;
  /** Size as displayed, after applying rotation metadata (what a viewer sees). */
  displayWidth: number;
  displayHeight: number;
  /** Rotation in degrees from the display matrix / rotate tag: 0, 90, 180 or 270. */
  rotation: 0 | 90 | 180 | 270;
  /** Sample aspect ratio as a number (1 for square pixels). */
  sampleAspectRatio: number;
  /** Average frame rate (avg_frame_rate), frames per second. */
  fps: number;
  pixelFormat: string;
  /** Bits per raw sample of the video (8, 10…), when known. */
  bitDepth: number;
  durationSeconds: number;
  /**
   * Where the file's timestamps start (ffprobe's format start_time), in seconds: MPEG-TS often
   * starts at 1.4 s, MP4 at 0. Positions we use (thumbnails, extracts) are relative to it, as
   * ffmpeg's input `-ss` is. Absent from probes recorded before it was kept.
   */
  startTimeSeconds?: number;
  sizeBytes: number;
  hasAudio: boolean;
  audioCodec: string | null;
  /** Transfer characteristics (e.g. 'smpte2084' for PQ HDR, 'arib-std-b67' for HLG), when tagged. */
  colorTransfer: string | null;
}
