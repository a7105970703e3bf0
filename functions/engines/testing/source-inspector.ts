import type { SourceInspector } from '../../core/testing/source-inspector';
import { collectSources } from './collect-sources';
import { detectFramework } from './detect-framework';

/** Test generation's view of a tree on the local file system. */
export const fileSourceInspector: SourceInspector = { frameworkOf: detectFramework, sourcesOf: collectSources };
