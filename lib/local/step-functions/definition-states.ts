/** The parts of an (already validated) ASL definition that the local runner reads or rewrites. */
export interface AslRetrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxDelaySeconds?: number;
  [field: string]: unknown;
}

export interface AslState {
  Type: string;
  Resource?: string;
  Seconds?: number;
  TimeoutSeconds?: number;
  TimeoutSecondsPath?: string;
  Retry?: AslRetrier[];
  Branches?: AslDefinition[];
  Iterator?: AslDefinition;
  ItemProcessor?: AslDefinition;
  [field: string]: unknown;
}

export interface AslDefinition {
  StartAt: string;
  States: Record<string, AslState>;
  [field: string]: unknown;
}

/** Every state, those inside Parallel branches and Map processors included (names are unique machine-wide). */
export const forEachState = (definition: AslDefinition, visit: (name: string, state: AslState) => void): void => {
  for (const [name, state] of Object.entries(definition.States)) {
    visit(name, state);
    for (const branch of state.Branches ?? []) forEachState(branch, visit);
    const processor = state.ItemProcessor ?? state.Iterator;
    if (processor) forEachState(processor, visit);
  }
};

/** Task state name → its Resource. */
export const taskResources = (definition: AslDefinition): Map<string, string> => {
  const resources = new Map<string, string>();
  forEachState(definition, (name, state) => {
    if (state.Type === 'Task' && state.Resource !== undefined) resources.set(name, state.Resource);
  });
  return resources;
};

/** Valid ASL that aws-local-stepfunctions would run differently from AWS (it has no JSONata, no variables). */
export const unsupportedFeatures = (definition: AslDefinition): string[] => {
  const problems: string[] = [];
  if (definition.QueryLanguage === 'JSONata') problems.push('QueryLanguage JSONata (top level)');
  forEachState(definition, (name, state) => {
    if (state.QueryLanguage === 'JSONata') problems.push(`${name}: QueryLanguage JSONata`);
    for (const field of ['Assign', 'Arguments', 'Output'] as const) {
      if (field in state) problems.push(`${name}: ${field} (variables / JSONata fields)`);
    }
  });
  return problems;
};

/**
 * The ASL default for a Task without TimeoutSeconds is 99999999 s; aws-local-stepfunctions uses 60 s
 * instead. This is the longest a Node timer can wait (2^31 - 1 ms).
 */
const longestTaskTimeoutSeconds = 2_147_483;
const defaultRetryIntervalSeconds = 1;

const scaledWaitResource = 'local:scaled-wait';

/** The Wait states with a SecondsPath, which a time scale other than 1 runs as scaled-wait Tasks. */
export const secondsPathWaits = (definition: AslDefinition): string[] => {
  const names: string[] = [];
  forEachState(definition, (name, state) => {
    if (state.Type === 'Wait' && state.SecondsPath !== undefined) names.push(name);
  });
  return names;
};

/**
 * Sleeps the seconds a Wait's SecondsPath named, times the scale; like Step Functions, a value that
 * is not a whole number of seconds fails the execution (States.Runtime, which no Catch catches).
 */
export const scaledWait =
  (timeScale: number) =>
  async (input: unknown): Promise<null> => {
    const seconds = (input as { seconds?: unknown } | null)?.seconds;
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0) {
      const error = new Error(`SecondsPath evaluated to ${JSON.stringify(seconds)}, but expected a non-negative integer`);
      error.name = 'States.Runtime';
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000 * timeScale));
    return null;
  };

/**
 * The definition the local runner executes: Wait `Seconds`, Retry `IntervalSeconds` (its default of
 * 1 s made explicit) and `MaxDelaySeconds` multiplied by timeScale, so BackoffRate and jitter still
 * apply as written; Tasks without a timeout get the ASL default rather than the library's 60 s.
 */
export const runnableDefinition = (definition: AslDefinition, timeScale: number): AslDefinition => {
  const copy = structuredClone(definition);
  forEachState(copy, (_name, state) => {
    if (state.Type === 'Wait' && state.Seconds !== undefined) state.Seconds *= timeScale;
    if (state.Type === 'Wait' && state.SecondsPath !== undefined && timeScale !== 1) {
      // A wait whose length comes from the input: a local Task that sleeps it, scaled (see scaledWait).
      const secondsPath = state.SecondsPath;
      delete state.SecondsPath;
      Object.assign(state, {
        Type: 'Task',
        Resource: scaledWaitResource,
        Parameters: { 'seconds.$': secondsPath },
        ResultPath: null,
        TimeoutSeconds: longestTaskTimeoutSeconds,
      });
    }
    for (const retrier of state.Retry ?? []) {
      retrier.IntervalSeconds = (retrier.IntervalSeconds ?? defaultRetryIntervalSeconds) * timeScale;
      if (retrier.MaxDelaySeconds !== undefined) retrier.MaxDelaySeconds *= timeScale;
    }
    if (state.Type === 'Task' && state.TimeoutSeconds === undefined && state.TimeoutSecondsPath === undefined) {
      state.TimeoutSeconds = longestTaskTimeoutSeconds;
    }
  });
  return copy;
};
