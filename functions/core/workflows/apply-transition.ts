import { isoTime, type Clock } from '../clock';
import { changeOptimistically } from '../optimistic-update';
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
  deps: { workflows: Pick<WorkflowRepository, 'get' | 'save'>; clock: Clock },
  tenant: Tenant,
  id: string,
  transition: (workflow: Workflow, nowIso: string) => Transition,
): Promise<Workflow> => {
  const stored = await changeOptimistically(
    `workflow ${id}`,
    () => deps.workflows.get(tenant, id),
    (current) => {
      const result = transition(current, isoTime(deps.clock.now()));
      return result.workflow === current ? null : result;
    },
    async (current, { workflow, events, logs }) => ((await deps.workflows.save(tenant, current, workflow, events, logs)) ? workflow : null),
  );
  if (!stored) throw new WorkflowMissing(`workflow ${id} not found`);
  return stored;
};
