import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../core/clock';
import type { Mailer } from '../../core/webhooks/delivery';

/** The local runtime's e-mail: one JSON file per message in the outbox folder. */
export const outboxMailer = (directory: string, clock: Clock): Mailer => ({
  async send(message) {
    await mkdir(directory, { recursive: true });
    const sentAt = new Date(clock.now()).toISOString();
    await writeFile(
      join(directory, `${sentAt.replace(/[:.]/g, '-')}-${randomUUID()}.json`),
      JSON.stringify({ ...message, sent_at: sentAt }, null, 2),
    );
  },
});
