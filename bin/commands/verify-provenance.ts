/**
 * `npm run cli -- provenance verify <envelope.json> --public-key <pub.pem> | --local`
 * `npm run cli -- provenance public-key`
 *
 * Verifying an envelope by hand, with jq and openssl (what `provenance verify` does):
 *
 *   $ jq -r .payload envelope.json | openssl base64 -d -A > payload.json
 *   $ jq -r '.signatures[0].sig' envelope.json | openssl base64 -d -A > sig.der
 *   $ type=$(jq -r .payloadType envelope.json)
 *   $ printf 'DSSEv1 %d %s %d ' ${#type} "$type" $(wc -c < payload.json) > pae.bin
 *   $ cat payload.json >> pae.bin
 *   $ openssl dgst -sha256 -verify pub.pem -signature sig.der pae.bin
 *   Verified OK
 *
 * pae.bin is DSSE's pre-authentication encoding, `DSSEv1 <len(type)> <type> <len(payload)> <payload>`,
 * and sig.der the DER ECDSA signature over its SHA-256. pub.pem comes from `provenance public-key`
 * (the local runtime's key) or, for the KMS key, from
 *   aws kms get-public-key --key-id <key> --query PublicKey --output text | openssl base64 -d -A | openssl pkey -pubin -inform DER > pub.pem
 * Then `jq .subject payload.json` lists the artifacts' digests. (The `$` lines are run by a unit test.)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { publicKeyPemOf, readLocalSigningKey } from '../../functions/adapters/signing/local-key-signer';
import { verifyEnvelope } from '../../functions/core/provenance/dsse';
import { dataDirFromEnvironment, locateRuntime } from '../../lib/local/runtime-file';

export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
  /** The local runtime's data directory; DATA_DIR or `.local-data` when absent. */
  dataDir?: string;
}

export const provenanceUsage = `npm run cli -- provenance <command>

  provenance verify <envelope.json> --public-key <pem file>
  provenance verify <envelope.json> --local      the local runtime's key
  provenance public-key [--local]                print the local runtime's public key (PEM)`;

/** Where the local runtime keeps its signing key: its LOCAL_SIGNING_KEY_DIR. */
export const localSigningKeyDirIn = (dataDir: string): string => join(dataDir, 'signing');

/** Bad arguments: the message and the usage, exit 2. */
class UsageError extends Error {}
/** An input that cannot be used (missing file, not JSON, no key): the message, exit 2. */
class InputError extends Error {}

const localPublicKeyPem = async (io: CommandIo): Promise<string> => {
  const lookup = io.dataDir ? undefined : await locateRuntime();
  const dir = localSigningKeyDirIn(io.dataDir ?? (lookup?.kind === 'found' ? lookup.dataDir : dataDirFromEnvironment()));
  const key = await readLocalSigningKey(dir);
  if (!key)
    throw new InputError(`There is no local signing key in ${dir} yet: the local runtime creates it when it first signs provenance.`);
  return publicKeyPemOf(key);
};

const readInput = async (file: string, what: string): Promise<string> => {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new InputError(`Cannot read the ${what} ${file}: ${(error as Error).message}`);
  }
};

/** Prints `<sha256>  <name>` per subject (the format of `sha256sum -c`), then `verified`. Exit 0, 1 or 2. */
export const verifyProvenanceCommand = async (args: string[], io: CommandIo): Promise<number> => {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'public-key': { type: 'string' }, local: { type: 'boolean', default: false } },
  });
  const [envelopeFile, extra] = positionals;
  if (!envelopeFile || extra !== undefined) throw new UsageError('provenance verify takes one envelope file.');
  if (Boolean(values['public-key']) === values.local)
    throw new UsageError('provenance verify needs either --public-key <pem file> or --local.');

  const publicKeyPem = values['public-key'] ? await readInput(values['public-key'], 'public key') : await localPublicKeyPem(io);
  let envelope: unknown;
  try {
    envelope = JSON.parse(await readInput(envelopeFile, 'envelope'));
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${envelopeFile} is not JSON: ${(error as Error).message}`);
  }
  let result;
  try {
    result = verifyEnvelope(envelope, publicKeyPem);
  } catch (error) {
    throw new InputError(`Unusable public key: ${(error as Error).message}`);
  }
  if (!result.valid || !result.statement) {
    io.err(`NOT verified: ${result.reason ?? 'invalid envelope'}.`);
    return 1;
  }
  for (const subject of result.statement.subject) io.out(`${subject.digest.sha256}  ${subject.name}`);
  io.out(`verified (${result.statement.predicateType}, signed by ${result.keyid || 'an unnamed key'})`);
  return 0;
};

/** `provenance <verify|public-key> ...` without the leading `provenance`; returns the exit code. */
export const provenanceCommand = async (args: string[], io: CommandIo): Promise<number> => {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'verify':
        return await verifyProvenanceCommand(rest, io);
      case 'public-key':
        // `--local` is the only key it prints (in AWS the key is KMS's: aws kms get-public-key).
        if (rest.some((arg) => arg !== '--local')) throw new UsageError('provenance public-key takes only --local.');
        io.out((await localPublicKeyPem(io)).trimEnd());
        return 0;
      default:
        throw new UsageError(command ? `Unknown command "provenance ${command}".` : 'Which provenance command?');
    }
  } catch (error) {
    if (error instanceof InputError) {
      io.err(error.message);
      return 2;
    }
    // parseArgs throws TypeErrors with a code for unknown or malformed options.
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${provenanceUsage}`);
      return 2;
    }
    throw error;
  }
};
