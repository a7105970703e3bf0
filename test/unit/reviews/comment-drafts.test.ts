import { type DraftComment, keptComments } from '../../../functions/core/reviews/comment-drafts';

const draft = (overrides: Partial<DraftComment>): DraftComment => ({
  path: 'src/app.js',
  start_line: null,
  line: 3,
  severity: 'high',
  category: 'security',
  source: 'analysis',
  rule: 'sast/no-eval',
  body: 'eval() runs whatever text it is given.',
  suggestion: null,
  ...overrides,
});

describe('the comments a review keeps', () => {
  it('keeps the analysis copy of a comment the AI repeats, whichever came first, with its rule', () => {
    const analysis = draft({});
    const ai = draft({ source: 'ai', rule: null, body: '  EVAL() runs whatever   text it is given. ' });
    for (const drafts of [
      [ai, analysis],
      [analysis, ai],
    ]) {
      expect(keptComments(drafts, 200)).toEqual({ comments: [analysis], duplicate: 1, overLimit: 0 });
    }
  });

  it('orders one place by severity, then analysis before the AI', () => {
    const aiHigh = draft({ source: 'ai', rule: null, body: 'Another point.' });
    const analysisHigh = draft({ body: 'A finding.' });
    const analysisLow = draft({ severity: 'low', body: 'A nit.' });
    expect(keptComments([analysisLow, aiHigh, analysisHigh], 200).comments).toEqual([analysisHigh, aiHigh, analysisLow]);
  });

  it('drops the least severe past the limit', () => {
    const low = draft({ severity: 'low', line: 1, body: 'low' });
    const high = draft({ line: 9, body: 'high' });
    expect(keptComments([low, high], 1)).toEqual({ comments: [high], duplicate: 0, overLimit: 1 });
  });
});
