import { isoTime, type Clock } from '../clock';
import type { Tenant } from '../tenancy';
import type { Transition } from './transitions';
import type { Workflow, WorkflowRepository } from './workflow';

export class WorkflowMissing extends Error {
  override readonly name = 'WorkflowMissing';
}

/**
 * Reads the workflow, applies `transition`, stores the result with its events if nobody changed
 * the workflow meanwhile, else reads again and retries: cancel and a finishing stage may race.
 */
export const applyTransition = async (
  deps: { workflows: WorkflowRepository; clock: Clock },
  tenant: Tenant,
  id: string,
  transition: (workflow: Workflow, nowIso: string) => Transition,
): Promise<Workflow> => {
  for (let attempt = 1; ; attempt += 1) {
    const current = await deps.workflows.get(tenant, id);
    if (!current) throw new WorkflowMissing(`workflow ${id} not found`);
    const { workflow, events } = transition(current, isoTime(deps.clock.now()));
    if (workflow === current) return current;
    if (await deps.workflows.save(tenant, current, workflow, events)) return workflow;
    if (attempt >= 10) throw new Error(`workflow ${id} kept changing; gave up after ${attempt} attempts`);
  }
};
