import * as v from 'valibot';

/** The state machine's input to every stage function; checked, since a bad input is a bug worth a clear error. */
export const workflowRefSchema = v.object({
  account_id: v.string(),
  mode: v.picklist(['live', 'test']),
  id: v.string(),
});

export const stageInput = v.object({ workflow: workflowRefSchema });

export const iterateInput = v.object({
  workflow: workflowRefSchema,
  iteration: v.object({ remaining: v.number(), used: v.number() }),
});

export const controlInput = v.variant('action', [
  v.object({ action: v.literal('start'), workflow: workflowRefSchema, max_iterations: v.number() }),
  v.object({ action: v.literal('skip_stage'), workflow: workflowRefSchema, stage: v.picklist(['iterate']) }),
  v.object({ action: v.literal('complete'), workflow: workflowRefSchema }),
  v.object({ action: v.literal('check_auto_deploy'), workflow: workflowRefSchema, deployment_id: v.string() }),
  v.object({
    action: v.literal('fail'),
    workflow: workflowRefSchema,
    error: v.object({ Error: v.optional(v.string()), Cause: v.optional(v.string()), stage: v.optional(v.string()) }),
  }),
]);
