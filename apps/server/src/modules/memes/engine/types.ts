/** A span of the source video, in seconds from its start. */
export interface Interval {
  startSeconds: number;
  endSeconds: number;
}

/** One bucket of YouTube's 'most replayed' graph; value is normalised 0..1 by YouTube. */
export interface HeatmapPoint {
  startSeconds: number;
  endSeconds: number;
  value: number;
}

/** What the analysis measured for one second of the video (second k covers [k, k+1)). */
export interface SecondFeatures {
  second: number;
  /** Mean energy of the second in dBFS (downmixed); -100 when there is no audio. */
  rmsDb: number;
  /** Loudest sample of the second in dBFS; -100 when there is no audio. */
  peakDb: number;
  /** More than half of the second lies inside a detected silence. */
  silent: boolean;
  /** Mean absolute luma difference between sampled frames (scdet's mafd, 0..100). */
  motion: number;
  /** Scene cuts detected within the second. */
  cuts: number;
  /** Most sampled frames of the second are (nearly) black. */
  black: boolean;
  /** The picture does not change over a stretch of at least two seconds including this one. */
  frozen: boolean;
  /** 'Most replayed' value for the second (0..1), or null when YouTube gave none. */
  heat: number | null;
}

/** A highlight chosen for the compilation. */
export interface Extract extends Interval {
  /** 0..1: how much the moment stands out from its surroundings (blended with 'most replayed'). */
  score: number;
  /** The second the extract was grown around. */
  peakSeconds: number;
}

/** Everything the feature pass found, before scoring. */
export interface FeatureTrack {
  durationSeconds: number;
  hasAudio: boolean;
  perSecond: SecondFeatures[];
  /** Times of detected scene cuts, ascending: preferred edges for extracts. */
  sceneCuts: number[];
  /** Detected silences, ascending: the other preferred edges. */
  silences: Interval[];
}
