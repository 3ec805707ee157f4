import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { emailField, PASSWORD_PATTERN } from '@legalmarket/contracts';
import { ConfigError, loadConfig } from '../config.js';
import { createAuth } from '../platform/auth.js';
import { tokenHasher } from '../platform/tokens.js';
import { createAccountsService } from '../features/accounts/service.js';
import { openRuntime } from '../runtime.js';

/** npm run create-admin -- --email ops@example.ng --name "Ops" [--phone 080…] [--password …] */
async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      phone: { type: 'string' },
      password: { type: 'string' },
    },
  });
  const email = emailField.safeParse(values.email ?? '');
  if (!email.success || !values.name?.trim()) {
    console.error(
      'Usage: npm run create-admin -- --email admin@example.ng --name "Full Name" [--phone 08012345678] [--password ...]',
    );
    process.exit(2);
  }
  let password = values.password;
  let generated = false;
  if (!password) {
    // Meets the password rule: letters, a digit and a special character.
    password = `${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}aA1!`;
    generated = true;
  }
  if (!PASSWORD_PATTERN.test(password)) {
    console.error(
      'The password needs at least 8 characters with an uppercase, a lowercase, a number and one of @$!%*?&',
    );
    process.exit(2);
  }
  const config = loadConfig();
  const rt = await openRuntime({ ...config, LOG_LEVEL: 'warn' });
  try {
    const db = rt.database.db;
    const accounts = createAccountsService({
      db,
      auth: createAuth({ db, secret: rt.secret, clock: rt.clock, ttlHours: config.TOKEN_TTL_HOURS }),
      clock: rt.clock,
      hashToken: tokenHasher(rt.secret),
      publicUrl: config.PUBLIC_URL,
      supportEmail: config.SUPPORT_EMAIL,
      mailWritten: () => undefined,
      securityLog: () => undefined,
    });
    const admin = await accounts.createAdmin({
      officialEmail: email.data,
      name: values.name.trim(),
      phoneNumber: (values.phone ?? '00000000000').replace(/\D/g, ''),
      password,
    });
    console.log(`Admin created: ${admin.officialEmail} (id ${admin.id})`);
    if (generated) console.log(`Password (shown once, change it after the first login): ${password}`);
  } finally {
    await rt.close();
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : `create-admin failed: ${(err as Error).message}`);
  process.exit(1);
});
