// An SMTP catcher on loopback for the browser tests whose shop sends mail
// (start the binary with --smtp-url smtp://127.0.0.1:<port>?tls=none&from=…):
// it keeps each message's envelope and data. waitForMail polls it, and
// mailText undoes the quoted-printable soft breaks and escapes of a body.
import net from 'node:net';

/** An SMTP catcher: enough of RFC 5321 for a client without TLS or AUTH. */
export function smtpCatcher() {
  const mails = [];
  const server = net.createServer((sock) => {
    sock.setEncoding('utf8');
    let buf = '';
    let data = null;
    let envelope = { from: '', to: [] };
    const say = (line) => sock.write(line + '\r\n');
    say('220 catcher ESMTP');
    sock.on('data', (chunk) => {
      buf += chunk;
      for (;;) {
        if (data !== null) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          data += buf.slice(0, end);
          buf = buf.slice(end + 5);
          mails.push({ ...envelope, data: data.replace(/\r\n\.\./g, '\r\n.') });
          data = null;
          envelope = { from: '', to: [] };
          say('250 OK: queued');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') say('250-catcher\r\n250-8BITMIME\r\n250 SMTPUTF8');
        else if (verb === 'HELO') say('250 catcher');
        else if (verb === 'MAIL') (envelope.from = line), say('250 OK');
        else if (verb === 'RCPT') envelope.to.push(/<([^>]*)>/.exec(line)?.[1] ?? ''), say('250 OK');
        else if (verb === 'DATA') (data = ''), say('354 End data with <CR><LF>.<CR><LF>');
        else if (verb === 'QUIT') say('221 Bye'), sock.end();
        else if (verb === 'RSET') (envelope = { from: '', to: [] }), say('250 OK');
        else say('250 OK');
      }
    });
    sock.on('error', () => {});
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: server.address().port, mails, close: () => server.close() })));
}

/** The first mail to address whose data matches test (a RegExp), waiting up to 10 s. */
export async function waitForMail(catcher, address, test) {
  for (let i = 0; i < 100; i++) {
    const m = catcher.mails.find((x) => x.to.includes(address) && test.test(mailText(x.data)));
    if (m) return m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${address} matching ${test} (got ${catcher.mails.length}: ${catcher.mails.map((x) => x.to.join(',')).join(' ')})`);
}

/** A mail's data with quoted-printable soft line breaks and =XX escapes undone. */
export function mailText(data) {
  return data.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}
