import { failureMessage } from '../../../functions/core/workflows/stages/control';

describe('failureMessage', () => {
  it("shows only the errorMessage of a Lambda error's JSON Cause, never its trace or type", () => {
    const cause = JSON.stringify({
      errorType: 'Error',
      errorMessage: 'the AI fix leaves no change',
      trace: ['Error: the AI fix leaves no change', '    at runIterate (/var/task/index.mjs:12:7)', '    at secretInternals()'],
    });
    const message = failureMessage({ Error: 'Error', Cause: cause });
    expect(message).toBe('the AI fix leaves no change');
    expect(message).not.toContain('/var/task');
    expect(message).not.toContain('trace');
  });

  it('uses a plain (non-JSON) Cause as it is', () => {
    expect(failureMessage({ Error: 'RepositoryUnavailable', Cause: 'The repository could not be cloned: 403 from the host' })).toBe(
      'The repository could not be cloned: 403 from the host',
    );
    expect(
      failureMessage({
        Error: 'VerificationFailed',
        Cause: 'Verification still fails and no iterations remain; see the report.',
        stage: 'verify',
      }),
    ).toBe('Verification still fails and no iterations remain; see the report.');
  });

  it('gives a sentence, not the bare error name, for States.Timeout without a Cause', () => {
    const message = failureMessage({ Error: 'States.Timeout' });
    expect(message).not.toBe('States.Timeout');
    expect(message).toMatch(/\w+ \w+ \w+/);
    expect(message).toMatch(/time/i);
  });

  it('gives a sentence for a transient AI error that outlasted its retries', () => {
    const message = failureMessage({ Error: 'AiProviderTransientError' });
    expect(message).not.toBe('AiProviderTransientError');
    expect(message).toMatch(/AI provider/);
  });

  it("falls back to the error's name, and to a sentence when there is nothing at all", () => {
    expect(failureMessage({ Error: 'SomethingOdd' })).toBe('SomethingOdd');
    expect(failureMessage({})).toMatch(/\w+ \w+/);
  });

  it('falls back when the Lambda message is blank', () => {
    const cause = JSON.stringify({ errorType: 'Error', errorMessage: '   ', trace: ['at x'] });
    const message = failureMessage({ Error: 'States.Timeout', Cause: cause });
    expect(message).toMatch(/time/i);
    expect(message).not.toContain('at x');
  });

  it('cuts a long message to 1000 characters', () => {
    const long = 'e'.repeat(5_000);
    const plain = failureMessage({ Error: 'Error', Cause: long });
    expect(plain).toHaveLength(1000);
    expect(plain.startsWith('e'.repeat(999))).toBe(true);

    const lambda = failureMessage({ Error: 'Error', Cause: JSON.stringify({ errorType: 'Error', errorMessage: long, trace: [] }) });
    expect(lambda).toHaveLength(1000);

    const exactly = 'f'.repeat(1000);
    expect(failureMessage({ Cause: exactly })).toBe(exactly);
  });
});

describe('failureMessage with a plain cause that parses as JSON', () => {
  it.each(['404', 'true', '"quoted"', '{"message":"x"}'])('keeps %s as it is', (cause) => {
    expect(failureMessage({ Error: 'Error', Cause: cause })).toBe(cause);
  });
});
