import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LatencyHistogram } from '../../../../src/workbench/load/histogram';
import { seededRandom } from '../../../support/testSupport';

test('percentiles are within 2 % of the exact ones over six orders of magnitude', () => {
  const random = seededRandom(7);
  const histogram = new LatencyHistogram();
  const samples: number[] = [];
  for (let index = 0; index < 20_000; index++) {
    const ms = 0.01 * 10 ** (random() * 6); // 10 µs … 10 s
    samples.push(ms);
    histogram.record(ms);
  }
  samples.sort((a, b) => a - b);
  for (const percent of [50, 90, 99, 99.9]) {
    const exact = samples[Math.ceil((percent / 100) * samples.length) - 1];
    const measured = histogram.percentileMs(percent);
    assert.ok(Math.abs(measured - exact) / exact < 0.02, `p${percent}: ${measured} against ${exact}`);
  }
  assert.equal(histogram.maxMs, Math.round(samples.at(-1)! * 1000) / 1000);
  assert.equal(histogram.count, 20_000);
});

test('equal samples report that value; p100 is the maximum; an empty histogram reports 0', () => {
  const histogram = new LatencyHistogram();
  assert.equal(histogram.percentileMs(50), 0);
  for (let index = 0; index < 10; index++) histogram.record(3.3);
  assert.equal(histogram.percentileMs(50), 3.3);
  histogram.record(250);
  assert.equal(histogram.percentileMs(100), 250);
  assert.equal(histogram.minMs, 3.3);
});

test('memory does not grow with the samples, and the merged buckets keep every count', () => {
  const histogram = new LatencyHistogram();
  for (let index = 0; index < 100_000; index++) histogram.record((index % 1000) / 10);
  const fine = histogram.buckets();
  const coarse = histogram.buckets(8);
  const total = (buckets: { count: number }[]) => buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  assert.equal(total(fine), 100_000);
  assert.equal(total(coarse), 100_000);
  assert.ok(coarse.length < fine.length);
  assert.ok(coarse.every((bucket, index) => index === 0 || bucket.upToMs > coarse[index - 1].upToMs));
  // An hour-long sample lands in the last bucket, its exact value is still the maximum.
  histogram.record(3_600_000 * 2);
  assert.equal(histogram.maxMs, 7_200_000);
});
