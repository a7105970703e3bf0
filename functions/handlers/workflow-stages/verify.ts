import * as v from 'valibot';
import { runVerify } from '../../core/workflows/stages/verify';
import { sastScanner } from '../../core/security/scanners/sast/sast-scanner';
import { secretsScanner } from '../../core/security/scanners/secrets-scanner';
import { stageDeps } from './stage-deps';
import { stageInput } from './stage-input';

const deps = stageDeps({ securityScanners: [secretsScanner(), sastScanner()] });

export const handler = async (event: unknown): Promise<unknown> => runVerify(deps, v.parse(stageInput, event).workflow);
