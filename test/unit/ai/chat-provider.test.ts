import { chatProvider, type ChatReply, type ChatRequest } from '../../../functions/adapters/ai/chat-provider';
import { AiProviderError } from '../../../functions/core/ai/provider';
import { rejectionOf } from './fake-model-server';
import { fixTask, planTask, validChangeSetJson, validPlanJson } from './sample-tasks';

const scripted = (...texts: Array<string | Partial<ChatReply>>) => {
  const requests: ChatRequest[] = [];
  const complete = async (request: ChatRequest): Promise<ChatReply> => {
    requests.push(request);
    const next = texts[requests.length - 1] ?? '';
    const reply = typeof next === 'string' ? { text: next } : next;
    return { text: '', usage: { input_tokens: 10, output_tokens: 5 }, model: 'm-1', truncated: false, ...reply };
  };
  return { requests, complete };
};

describe('chatProvider', () => {
  it('renders the task, caps the answer per task and parses the reply', async () => {
    const model = scripted(validPlanJson);
    const result = await chatProvider('fake', model.complete).run(planTask('Add a greeting'));
    expect(result).toEqual({
      output: JSON.parse(validPlanJson),
      usage: { input_tokens: 10, output_tokens: 5 },
      provider: 'fake',
      model: 'm-1',
    });
    expect(model.requests[0]).toMatchObject({ maxTokens: 4_096, user: expect.stringContaining('Add a greeting') });
  });

  it('uses a configured output cap', async () => {
    const model = scripted(validChangeSetJson);
    await chatProvider('fake', model.complete, { maxOutputTokens: 1_000 }).run(fixTask());
    expect(model.requests[0]?.maxTokens).toBe(1_000);
  });

  it('asks again once, saying what was wrong, and adds up the usage', async () => {
    const model = scripted('{"summary": 1}', { text: validChangeSetJson, model: 'm-2' });
    const result = await chatProvider('fake', model.complete).run(fixTask());
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.user).toMatch(/An earlier answer to this request was rejected: The fix answer has the wrong shape: summary/);
    expect(result).toMatchObject({ usage: { input_tokens: 20, output_tokens: 10 }, model: 'm-2' });
  });

  it('does not ask again for an answer cut at the limit', async () => {
    const model = scripted({ text: '{"summary": "x", "files": [', truncated: true });
    const error = await rejectionOf(chatProvider('fake', model.complete).run(fixTask()));
    expect(error).toBeInstanceOf(AiProviderError);
    expect(error.message).toBe('fake: the fix answer was cut at the limit of 8192 output tokens');
    expect(model.requests).toHaveLength(1);
  });
});
