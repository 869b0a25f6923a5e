/**
 * A mergeable latency sketch (DDSketch-style): a latency of `ms` milliseconds counts in log
 * bucket `ceil(log_gamma(ms))`, so every answer is within `(gamma - 1) / (gamma + 1)` (about 5 %)
 * of the true value, whatever the distribution. A sketch is a plain int array of counts per
 * bucket (index 0 holds everything up to 1 ms, the last everything from about 2 days up); two
 * sketches merge by adding their arrays element-wise, which is what the rollup tables do in SQL
 * (the channels' migrations create the same index function from `LATENCY_SKETCH`).
 */
export const LATENCY_SKETCH = {
  gamma: 1.1,
  /** Buckets in a full sketch; stored arrays are trimmed after their last non-zero count. */
  size: 200,
} as const;

const logGamma = Math.log(LATENCY_SKETCH.gamma);

/** The bucket a latency counts in (0-based). */
export function sketchIndex(ms: number): number {
  if (!(ms > 1)) return 0;
  return Math.min(LATENCY_SKETCH.size - 1, Math.ceil(Math.log(ms) / logGamma));
}

/** The value a bucket stands for: the midpoint that bounds the relative error on both sides. */
export function sketchValue(index: number): number {
  if (index === 0) return 1;
  return (2 * LATENCY_SKETCH.gamma ** index) / (LATENCY_SKETCH.gamma + 1);
}

/** A trimmed sketch of `latencies` (ms). */
export function sketchOf(latencies: readonly number[]): number[] {
  const counts: number[] = [];
  for (const ms of latencies) {
    const index = sketchIndex(ms);
    while (counts.length <= index) counts.push(0);
    counts[index] += 1;
  }
  return counts;
}

/** Two sketches as one (element-wise sum). */
export function mergeSketches(a: readonly number[], b: readonly number[]): number[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => (a[i] ?? 0) + (b[i] ?? 0));
}

/** The `q` quantile (0..1) in ms, rounded to a whole millisecond; null for an empty sketch. */
export function sketchQuantile(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  // The rank of the quantile among the sorted latencies (nearest-rank, 0-based).
  const rank = Math.max(0, Math.ceil(q * total) - 1);
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i];
    if (seen > rank) return Math.round(sketchValue(i));
  }
  return Math.round(sketchValue(counts.length - 1));
}

export interface LatencyQuantiles {
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

/** p50, p95 and p99 of a sketch, or undefined when nothing was measured (the family is omitted). */
export function latencyQuantiles(
  counts: readonly number[] | null | undefined,
): LatencyQuantiles | undefined {
  if (!counts || counts.every((count) => count === 0)) return undefined;
  return {
    p50_ms: sketchQuantile(counts, 0.5),
    p95_ms: sketchQuantile(counts, 0.95),
    p99_ms: sketchQuantile(counts, 0.99),
  };
}

/**
 * A stored sketch as the rollups' reads answer it (`stats_sketch_json`): `[first, counts]`, the
 * counts from bucket `first` on (stored arrays start at their first non-empty bucket), as the
 * full array the quantiles read.
 */
export function sketchFromStored(stored: unknown): number[] | null {
  if (!Array.isArray(stored) || stored.length !== 2) return null;
  const [first, counts] = stored as [number, number[] | null];
  if (!Array.isArray(counts)) return null;
  return [...new Array<number>(Math.max(0, first)).fill(0), ...counts];
}

/**
 * The SQL of the rollups' sketch functions in `schema`: the bucket of a latency (the same
 * formula as `sketchIndex`, 1-based as SQL arrays are), a sketch of a group's buckets, the
 * element-wise sum of two sketches and an aggregate over many, and the stored form's JSON. A
 * stored sketch is an int array whose lower bound is its first non-empty bucket, so a narrow
 * distribution costs a few elements, and a sum touches only those. Every channel's migration
 * creates them in its own schema.
 */
export function latencySketchFunctionsSql(schema: string): string[] {
  return [
    `CREATE FUNCTION ${schema}.stats_sketch_slot(ms double precision) RETURNS int
       LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
         SELECT CASE WHEN ms IS NULL OR ms <= 1 THEN 1
           ELSE least(${LATENCY_SKETCH.size}, ceil(ln(ms) / ln(${LATENCY_SKETCH.gamma}))::int + 1) END $$`,
    `CREATE FUNCTION ${schema}.stats_sketch_of(slots int[]) RETURNS int[]
       LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
       DECLARE s int; lo int; hi int; r int[];
       BEGIN
         SELECT min(x), max(x) INTO lo, hi FROM unnest(slots) x;
         IF lo IS NULL THEN RETURN NULL; END IF;
         r := array_fill(0, ARRAY[hi - lo + 1], ARRAY[lo]);
         FOREACH s IN ARRAY slots LOOP
           IF s IS NOT NULL THEN r[s] := r[s] + 1; END IF;
         END LOOP;
         RETURN r;
       END $$`,
    `CREATE FUNCTION ${schema}.stats_sketch_add(a int[], b int[]) RETURNS int[]
       LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
       DECLARE i int; r int[];
       BEGIN
         IF a IS NULL THEN RETURN b; END IF;
         IF b IS NULL THEN RETURN a; END IF;
         IF array_lower(b, 1) >= array_lower(a, 1) AND array_upper(b, 1) <= array_upper(a, 1) THEN
           FOR i IN array_lower(b, 1) .. array_upper(b, 1) LOOP a[i] := a[i] + b[i]; END LOOP;
           RETURN a;
         END IF;
         r := array_fill(0,
           ARRAY[greatest(array_upper(a, 1), array_upper(b, 1)) - least(array_lower(a, 1), array_lower(b, 1)) + 1],
           ARRAY[least(array_lower(a, 1), array_lower(b, 1))]);
         FOR i IN array_lower(a, 1) .. array_upper(a, 1) LOOP r[i] := a[i]; END LOOP;
         FOR i IN array_lower(b, 1) .. array_upper(b, 1) LOOP r[i] := r[i] + b[i]; END LOOP;
         RETURN r;
       END $$`,
    `CREATE AGGREGATE ${schema}.stats_sketch_sum(int[]) (
       SFUNC = ${schema}.stats_sketch_add, STYPE = int[], COMBINEFUNC = ${schema}.stats_sketch_add,
       PARALLEL = SAFE)`,
    // 0-based first bucket and the counts, for the reads (drivers drop an array's lower bound).
    `CREATE FUNCTION ${schema}.stats_sketch_json(a int[]) RETURNS jsonb
       LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
         SELECT CASE WHEN a IS NULL THEN NULL ELSE jsonb_build_array(array_lower(a, 1) - 1, to_jsonb(a)) END $$`,
  ];
}
