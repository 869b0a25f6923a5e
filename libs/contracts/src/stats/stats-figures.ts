/** The country rows that collect recipients whose country could not be resolved. */
export const UNKNOWN_COUNTRY = 'ZZ';

/** `numerator / denominator`, or null when the denominator is zero (the SDK's rate rule). */
export function rate(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

/** `(current - previous) / previous`, or null when the previous count is zero. */
export function pctChange(current: number, previous: number): number | null {
  return previous > 0 ? (current - previous) / previous : null;
}

/** The signed difference between two rates, or null when either is undefined. */
export function rateDelta(current: number | null, previous: number | null): number | null {
  return current === null || previous === null ? null : current - previous;
}

/** Default and maximum `limit` of a breakdown. */
export const BREAKDOWN_LIMIT = { default: 50, max: 200, withTrend: 50 } as const;
/** The longest window a breakdown's trend covers: 90 days daily, 720 hours hourly. */
export const TREND_MAX = { daily: 90, hourlyHours: 720 } as const;

/**
 * Ranks breakdown rows by `metric` descending: rows whose metric is null (an undefined rate)
 * last, ties by key ascending so the order is stable between requests.
 */
export function rankRows<R>(
  rows: readonly R[],
  metricOf: (row: R) => number | null,
  keyOf: (row: R) => string,
): R[] {
  return [...rows].sort((a, b) => {
    const x = metricOf(a);
    const y = metricOf(b);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else if (x !== y) return y - x;
    const [ka, kb] = [keyOf(a), keyOf(b)];
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}
