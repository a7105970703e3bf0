import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../core/clock';
import type { Mailer } from '../../core/webhooks/delivery';

/**
 * The local runtime's e-mail: one JSON file per message in the outbox folder, written beside it
 * and renamed into place, so whoever reads the folder (a person, a test waiting for the message
 * the stream sends) never finds half a message.
 */
export const outboxMailer = (directory: string, clock: Clock): Mailer => ({
  async send(message) {
    await mkdir(directory, { recursive: true });
    const sentAt = new Date(clock.now()).toISOString();
    const name = `${sentAt.replace(/[:.]/g, '-')}-${randomUUID()}.json`;
    await writeFile(join(directory, `.${name}.partial`), JSON.stringify({ ...message, sent_at: sentAt }, null, 2));
    await rename(join(directory, `.${name}.partial`), join(directory, name));
  },
});
