import * as v from 'valibot';

export const deploymentRefSchema = v.object({ account_id: v.string(), mode: v.picklist(['live', 'test']), id: v.string() });

export const stepInput = v.object({ deployment: deploymentRefSchema });

const caught = v.object({ Error: v.optional(v.string()), Cause: v.optional(v.string()) });

export const controlInput = v.variant('action', [
  v.object({ action: v.literal('start'), deployment: deploymentRefSchema }),
  v.object({ action: v.literal('complete'), deployment: deploymentRefSchema }),
  v.object({ action: v.literal('fail'), deployment: deploymentRefSchema, error: caught }),
  v.object({ action: v.literal('rollback_failed'), deployment: deploymentRefSchema, error: caught }),
]);
