#!/usr/bin/env node
// An SMTP server that accepts every message and prints who it is from and to, for trying
// Switchboard on one machine: start Switchboard with SMTP_RELAY_URL=smtp://127.0.0.1:2525 and mail
// "arrives" here instead of at the recipients' MX hosts. Nothing is stored or forwarded.
// Usage: npm run dev:smtp   (DEV_SMTP_PORT, default 2525)
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

const port = Number(process.env.DEV_SMTP_PORT ?? 2525);
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  size: 40 * 1024 * 1024,
  onData(stream, session, done) {
    simpleParser(stream).then(
      (mail) => {
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address).join(', ');
        process.stdout.write(
          `${new Date().toISOString()} mail from ${session.envelope.mailFrom ? session.envelope.mailFrom.address : '<>'} to ${to}: ` +
            `"${mail.subject ?? ''}" (${mail.messageId ?? 'no Message-ID'}, DKIM-Signature: ${mail.headers.has('dkim-signature') ? 'yes' : 'no'}` +
            `${mail.headers.get('list')?.['unsubscribe-post'] ? ', List-Unsubscribe: one-click' : ''})\n`,
        );
        done();
      },
      (err) => done(err),
    );
  },
});
server.on('error', (err) => {
  process.stderr.write(`${err.message}\n`);
  if (!server.server.listening) process.exit(1);
});
server.listen(port, '127.0.0.1', () =>
  process.stdout.write(
    `SMTP sink on 127.0.0.1:${port}; start Switchboard with SMTP_RELAY_URL=smtp://127.0.0.1:${port}\n`,
  ),
);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => server.close(() => process.exit(0)));
