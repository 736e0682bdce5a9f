/**
 * A latency histogram in the manner of HdrHistogram: log-linear buckets in a fixed typed array, so a load run of a
 * million calls costs the same memory as one of ten (a sample array would grow with every call and its sort would
 * cost the client time at the end). Values are whole microseconds; below SUB_BUCKETS µs each value has its own
 * bucket, above it each power of two is cut into HALF sub-buckets, so a percentile is within 1/HALF (1.6 %) of the
 * true value. The exact minimum and maximum are kept beside the buckets.
 */

const SUB_BUCKET_BITS = 7;
const SUB_BUCKETS = 1 << SUB_BUCKET_BITS; // 128: values 0–127 µs are exact
const HALF = SUB_BUCKETS >> 1; // 64 sub-buckets per power of two above that
/** 2^32 µs (71 minutes): longer samples are counted in the last bucket (the exact maximum is still kept). */
const TOP_EXPONENT = 31;
const BUCKETS = SUB_BUCKETS + (TOP_EXPONENT - SUB_BUCKET_BITS + 1) * HALF;

/** The bucket of a whole number of microseconds. */
function bucketOf(micros: number): number {
  if (micros < SUB_BUCKETS) return micros;
  if (micros >= 2 ** (TOP_EXPONENT + 1)) return BUCKETS - 1;
  const exponent = 31 - Math.clz32(micros); // 2^exponent <= micros; micros < 2^32 here
  const sub = Math.floor(micros / 2 ** (exponent - SUB_BUCKET_BITS + 1)); // HALF … SUB_BUCKETS - 1
  return SUB_BUCKETS + (exponent - SUB_BUCKET_BITS) * HALF + (sub - HALF);
}

/** The lowest and highest microsecond values a bucket holds. */
function bucketRange(index: number): { low: number; high: number } {
  if (index < SUB_BUCKETS) return { low: index, high: index };
  const exponent = SUB_BUCKET_BITS + Math.floor((index - SUB_BUCKETS) / HALF);
  const sub = HALF + ((index - SUB_BUCKETS) % HALF);
  const width = 2 ** (exponent - SUB_BUCKET_BITS + 1);
  return { low: sub * width, high: (sub + 1) * width - 1 };
}

export interface HistogramBucket {
  /** The bucket's upper bound in milliseconds. */
  upToMs: number;
  count: number;
}

export class LatencyHistogram {
  private readonly counts = new Float64Array(BUCKETS);
  private total = 0;
  private sumMicros = 0;
  private minMicros = Number.POSITIVE_INFINITY;
  private maxMicros = 0;

  /** Records one sample, in milliseconds (a negative or non-finite sample is recorded as 0). */
  record(ms: number): void {
    const micros = Number.isFinite(ms) && ms > 0 ? Math.round(ms * 1000) : 0;
    this.counts[bucketOf(micros)]++;
    this.total++;
    this.sumMicros += micros;
    if (micros < this.minMicros) this.minMicros = micros;
    if (micros > this.maxMicros) this.maxMicros = micros;
  }

  get count(): number {
    return this.total;
  }

  /** Forgets every sample (a live view's histogram of the last interval starts again). */
  reset(): void {
    this.counts.fill(0);
    this.total = 0;
    this.sumMicros = 0;
    this.minMicros = Number.POSITIVE_INFINITY;
    this.maxMicros = 0;
  }

  get maxMs(): number {
    return this.maxMicros / 1000;
  }

  get minMs(): number {
    return this.total === 0 ? 0 : this.minMicros / 1000;
  }

  get meanMs(): number {
    return this.total === 0 ? 0 : this.sumMicros / this.total / 1000;
  }

  /**
   * The value at or below which `percent` of the samples lie, in milliseconds: the middle of its bucket, kept inside
   * the exact minimum and maximum (so p100 is the maximum, and a run of equal samples reports that value).
   */
  percentileMs(percent: number): number {
    if (this.total === 0) return 0;
    const rank = Math.max(1, Math.ceil((Math.min(100, Math.max(0, percent)) / 100) * this.total));
    let seen = 0;
    for (let index = 0; index < BUCKETS; index++) {
      seen += this.counts[index];
      if (seen >= rank) {
        const { low, high } = bucketRange(index);
        const middle = (low + high) / 2;
        return Math.min(this.maxMicros, Math.max(this.minMicros, middle)) / 1000;
      }
    }
    return this.maxMicros / 1000;
  }

  /**
   * The buckets that hold samples, in order (what a chart of the distribution draws), merged to `stepsPerDoubling`
   * buckets per power of two.
   */
  buckets(stepsPerDoubling = HALF): HistogramBucket[] {
    const result: HistogramBucket[] = [];
    for (let index = 0; index < BUCKETS; index++) {
      if (this.counts[index] === 0) continue;
      const upTo = ceilToGrid(bucketRange(index).high + 1, stepsPerDoubling) / 1000;
      const last = result.at(-1);
      if (last && last.upToMs === upTo) last.count += this.counts[index];
      else result.push({ upToMs: upTo, count: this.counts[index] });
    }
    return result;
  }
}

/** The smallest value of the grid 2^e·(1 + j/steps) at or above `micros` (whole numbers below `steps`). */
function ceilToGrid(micros: number, steps: number): number {
  if (micros <= steps) return micros;
  const step = 2 ** Math.floor(Math.log2(micros)) / steps;
  return Math.ceil(micros / step) * step;
}
