import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { registerAgent, type RegisteredAgent } from '../support/agents';
import { createTestApp, type TestApp } from '../support/app';
import {
  collectPageErrors,
  desktopContext,
  launchChromium,
  requireWebBuild,
  withDiagnostics,
  type Browser,
  type Page,
} from '../support/browser';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';
import { call } from './mcp-flow';
import { type CallbackServer, MemoryOAuthProvider, pkce, startCallbackServer } from './oauth-rig';

interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/**
 * OAuth 2.1 for /mcp (product-decisions §21): the official MCP client's OAuth support against the real app on a
 * port, the consent page driven in Chromium; then the protocol's edges checked at the HTTP level (rotation and
 * reuse, revocation, PKCE, audience, Client ID Metadata Documents).
 */
describe('OAuth for /mcp', () => {
  let rig: PaymentRig;
  let cb: CallbackServer;
  let browser: Browser;
  const pages: { page: Page; errors: ReturnType<typeof collectPageErrors> }[] = [];

  beforeAll(async () => {
    requireWebBuild();
    rig = await startPaymentRig();
    cb = await startCallbackServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await cb?.close();
    await rig?.close();
  });

  const base = (): string => rig.baseUrl;

  function form(path: string, params: Record<string, string>): Promise<globalThis.Response> {
    return fetch(`${base()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
  }

  async function registerClient(redirectUri = cb.redirectUri): Promise<string> {
    const res = await fetch(`${base()}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Raw client', redirect_uris: [redirectUri] }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  }

  function authorizeUrl(params: Record<string, string>): string {
    return `${base()}/oauth/authorize?${new URLSearchParams(params).toString()}`;
  }

  /** GET /oauth/authorize without following: the Location it answers. */
  async function authorize(params: Record<string, string>): Promise<URL> {
    const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  /** The whole code flow at the HTTP level, consent posted as the console posts it. */
  async function signIn(agent: RegisteredAgent, consent: Record<string, unknown> = {}) {
    const clientId = await registerClient();
    const { verifier, challenge } = pkce();
    const consentPage = await authorize({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: cb.redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'raw-state',
      resource: `${base()}/mcp`,
    });
    expect(`${consentPage.origin}${consentPage.pathname}`).toBe(`${base()}/console/oauth/consent`);
    const decided = await rig.t.http
      .post('/v1/oauth/consent')
      .set('Authorization', `Bearer ${agent.accessToken}`)
      .send({ request: consentPage.searchParams.get('request'), approve: true, ...consent });
    expect(decided.status).toBe(200);
    const back = new URL(decided.body.redirect_to as string);
    expect(back.searchParams.get('state')).toBe('raw-state');
    expect(back.searchParams.get('iss')).toBe(base());
    const res = await form('/oauth/token', {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: cb.redirectUri,
      resource: `${base()}/mcp`,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return { clientId, grantId: decided.body.grant_id as string, tokens: (await res.json()) as Tokens };
  }

  function mcpList(token: string): Promise<globalThis.Response> {
    return fetch(`${base()}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  }

  async function connect(
    provider: MemoryOAuthProvider,
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const client = new Client({ name: 'legwork-oauth-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), { authProvider: provider });
    await client.connect(transport);
    return { client, transport };
  }

  it('signs in through the official client: discovery from the 401, registration, consent in Chromium, tools', () =>
    withDiagnostics(pages, async () => {
      const agent = await registerAgent(rig.t);
      const page = await (await desktopContext(browser, base())).newPage();
      pages.push({ page, errors: collectPageErrors(page) });
      page.setDefaultTimeout(20_000);
      // The person opens the authorization URL, signs in to the console, narrows the permissions, sets caps and
      // approves; the browser lands on the app's redirect URI.
      const provider = new MemoryOAuthProvider(cb.redirectUri, async (url) => {
        expect(url.searchParams.get('code_challenge_method')).toBe('S256');
        await page.goto(url.toString());
        await page.getByLabel('Email').fill(agent.email);
        await page.getByLabel('Password').fill(agent.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Legwork OAuth e2e asks to act for this account' }).waitFor();
        await page.getByText('127.0.0.1', { exact: false }).first().waitFor();
        await page.getByRole('checkbox', { name: 'webhook:manage' }).uncheck();
        await page.getByLabel('Daily cap (CNY)').fill('50');
        await page.getByLabel('Approval ceiling (CNY)').fill('200');
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('heading', { name: 'You may close this tab' }).waitFor();
      });

      // No credentials: the client reads the 401's resource_metadata, discovers the server, registers and
      // redirects; connect fails until the code is exchanged.
      await expect(connect(provider)).rejects.toThrow();
      expect(provider.client?.client_id).toMatch(/^lwc_/);
      // Discovered from the challenge: the protected-resource metadata it names, and the issuer that lists.
      expect(provider.discoveryState()).toMatchObject({
        resourceMetadataUrl: `${base()}/.well-known/oauth-protected-resource/mcp`,
        authorizationServerUrl: base(),
      });
      await provider.authorizing;
      const callback = await cb.next();
      expect(callback.get('state')).toBe(provider.lastState);
      const transport = new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), {
        authProvider: provider,
      });
      await transport.finishAuth(callback);
      expect(provider.saved).toMatchObject({
        token_type: 'Bearer',
        scope: expect.not.stringContaining('webhook'),
      });

      const { client } = await connect(provider);
      try {
        const account = await call(client, 'get_account');
        expect(account).toMatchObject({ agent_id: agent.id, mode: 'sandbox' });
        const tools = await client.listTools();
        expect(tools.tools.map((t) => t.name)).toContain('create_task');
      } finally {
        await client.close();
      }

      // The console lists the grant with what the person chose.
      const grants = await rig.t.http
        .get('/v1/oauth/grants')
        .set('Authorization', `Bearer ${agent.accessToken}`);
      expect(grants.status).toBe(200);
      expect(grants.body).toEqual([
        expect.objectContaining({
          client_name: 'Legwork OAuth e2e',
          client_host: new URL(cb.origin).host,
          permissions: ['task:create', 'task:read', 'task:cancel', 'payment:read', 'payment:write'],
          spend_caps: { daily_cents: 5000 },
          ceiling_cents: 20000,
        }),
      ]);

      // Connected apps: the grant as the person set it, revoked from there; the tools stop at once.
      await page.goto('/console/apps');
      const card = page.getByRole('region', { name: /Legwork OAuth e2e/ });
      await card.getByText('¥50.00').waitFor();
      await card.getByText('¥200.00').waitFor();
      await card.getByRole('button', { name: 'Revoke Legwork OAuth e2e' }).click();
      await page.getByText('No app is connected.').waitFor();
      expect((await mcpList(provider.saved!.access_token)).status).toBe(401);
      expect(pages.flatMap((p) => p.errors.unexpected())).toEqual([]);
    }));

  it('refuses a revoked grant at once, its access token at /mcp and its refresh token', async () => {
    const agent = await registerAgent(rig.t);
    const { grantId, clientId, tokens } = await signIn(agent);
    expect((await mcpList(tokens.access_token)).status).toBe(200);

    const revoked = await rig.t.http
      .delete(`/v1/oauth/grants/${grantId}`)
      .set('Authorization', `Bearer ${agent.accessToken}`);
    expect(revoked.status).toBe(204);

    const refused = await mcpList(tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refresh = await form('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
    const again = await rig.t.http
      .delete(`/v1/oauth/grants/${grantId}`)
      .set('Authorization', `Bearer ${agent.accessToken}`);
    expect(again.body.error.code).toBe('oauth_grant_not_found');
    expect(
      (await rig.t.http.get('/v1/oauth/grants').set('Authorization', `Bearer ${agent.accessToken}`)).body,
    ).toEqual([]);
  });

  it('rotates refresh tokens; one reused after rotation revokes the whole family', async () => {
    const agent = await registerAgent(rig.t);
    const { clientId, tokens } = await signIn(agent);
    const rotate = (refresh_token: string) =>
      form('/oauth/token', { grant_type: 'refresh_token', refresh_token, client_id: clientId });

    const first = await rotate(tokens.refresh_token);
    expect(first.status).toBe(200);
    const next = (await first.json()) as Tokens;
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpList(next.access_token)).status).toBe(200);

    // The old token again: refused, and the family (the new refresh token and its access token) with it.
    const reused = await rotate(tokens.refresh_token);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await rotate(next.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await mcpList(next.access_token)).status).toBe(401);

    // Two rotations of one token at once: exactly one wins, and the loser's reuse ends the session for both.
    const raced = await signIn(agent);
    const racedRotate = (refresh_token: string) =>
      form('/oauth/token', { grant_type: 'refresh_token', refresh_token, client_id: raced.clientId });
    const answers = await Promise.all([1, 2, 3].map(() => racedRotate(raced.tokens.refresh_token)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    const winner = (await answers.find((a) => a.status === 200)!.json()) as Tokens;
    expect(await (await racedRotate(winner.refresh_token)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes a session by its refresh token (RFC 7009); unknown tokens answer alike', async () => {
    const agent = await registerAgent(rig.t);
    const { clientId, tokens } = await signIn(agent);
    expect((await form('/oauth/revoke', { token: 'not-a-token', client_id: clientId })).status).toBe(200);
    expect((await mcpList(tokens.access_token)).status).toBe(200);
    expect((await form('/oauth/revoke', { token: tokens.refresh_token, client_id: clientId })).status).toBe(
      200,
    );
    expect((await mcpList(tokens.access_token)).status).toBe(401);
  });

  it('uses the grant only through an internal agent token: the OAuth token is refused by the API', async () => {
    const agent = await registerAgent(rig.t);
    const { tokens } = await signIn(agent, { permissions: ['task:read'] });
    const api = await rig.t.http.get('/v1/agent/me').set('Authorization', `Bearer ${tokens.access_token}`);
    expect(api.status).toBe(403);
    expect(api.body.error.code).toBe('forbidden');
    // The console's own JWT is not an MCP credential either.
    expect((await mcpList(agent.accessToken)).status).toBe(403);

    // Tools run with the grant's permissions: get_account needs payment:read, which this grant lacks.
    const client = new Client({ name: 'legwork-oauth-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    try {
      const denied = await client.callTool({ name: 'get_account', arguments: {} });
      expect(denied.isError).toBe(true);
      expect(JSON.stringify(denied.content)).toContain('insufficient_permissions');
      const listed = await client.callTool({ name: 'list_tasks', arguments: {} });
      expect(listed.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('refuses a token for another audience', async () => {
    const agent = await registerAgent(rig.t);
    // A second instance of the same deployment (same database and secrets) answering at another origin issues a
    // token whose audience is its own /mcp; this origin's /mcp refuses it.
    let other: TestApp | undefined;
    try {
      other = await createTestApp(
        { PUBLIC_BASE_URL: 'http://other.legwork.test' },
        { databaseName: rig.t.databaseName },
      );
      const clientId = (
        await other.http
          .post('/oauth/register')
          .send({ client_name: 'elsewhere', redirect_uris: [cb.redirectUri] })
          .expect(201)
      ).body.client_id as string;
      const { verifier, challenge } = pkce();
      const at = await other.http.get('/oauth/authorize').query({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: cb.redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const request = new URL(at.headers.location).searchParams.get('request');
      const decided = await other.http
        .post('/v1/oauth/consent')
        .set('Authorization', `Bearer ${agent.accessToken}`)
        .send({ request, approve: true });
      const code = new URL(decided.body.redirect_to as string).searchParams.get('code')!;
      const token = await other.http
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId });
      expect(token.status).toBe(200);
      const foreign = token.body.access_token as string;
      expect(
        (await other.http.post('/mcp').set('Authorization', `Bearer ${foreign}`).send({})).status,
      ).not.toBe(401);

      const refused = await mcpList(foreign);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
      // Asking this server for a token for another resource is refused too (RFC 8707).
      const wrongTarget = await authorize({
        response_type: 'code',
        client_id: await registerClient(),
        redirect_uri: cb.redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: 'http://other.legwork.test/mcp',
      });
      expect(wrongTarget.searchParams.get('error')).toBe('invalid_target');
    } finally {
      await other?.close();
    }
  });

  it('requires PKCE with S256: plain or no challenge goes back to the client as invalid_request', async () => {
    const clientId = await registerClient();
    const { verifier } = pkce();
    const common = { response_type: 'code', client_id: clientId, redirect_uri: cb.redirectUri, state: 's1' };
    const plain = await authorize({ ...common, code_challenge: verifier, code_challenge_method: 'plain' });
    expect(`${plain.origin}${plain.pathname}`).toBe(cb.redirectUri);
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    expect(plain.searchParams.get('error_description')).toContain('S256');
    expect(plain.searchParams.get('state')).toBe('s1');
    const none = await authorize(common);
    expect(none.searchParams.get('error')).toBe('invalid_request');
    // A redirect URI the client did not register is never redirected to.
    const res = await fetch(authorizeUrl({ ...common, redirect_uri: 'http://127.0.0.1:1/elsewhere' }), {
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a code exchanged with the wrong verifier, and a code used twice revokes what it issued', async () => {
    const agent = await registerAgent(rig.t);
    const clientId = await registerClient();
    const { verifier, challenge } = pkce();
    const consent = await authorize({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: cb.redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const decided = await rig.t.http
      .post('/v1/oauth/consent')
      .set('Authorization', `Bearer ${agent.accessToken}`)
      .send({ request: consent.searchParams.get('request'), approve: true });
    const code = new URL(decided.body.redirect_to as string).searchParams.get('code')!;
    const exchange = (code_verifier: string) =>
      form('/oauth/token', { grant_type: 'authorization_code', code, code_verifier, client_id: clientId });
    expect(await (await exchange(pkce().verifier)).json()).toMatchObject({ error: 'invalid_grant' });
    const ok = await exchange(verifier);
    expect(ok.status).toBe(200);
    const { access_token } = (await ok.json()) as Tokens;
    expect(await (await exchange(verifier)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await mcpList(access_token)).status).toBe(401);
    // The consent request was answered once.
    const twice = await rig.t.http
      .post('/v1/oauth/consent')
      .set('Authorization', `Bearer ${agent.accessToken}`)
      .send({ request: consent.searchParams.get('request'), approve: true });
    expect(twice.body.error.code).toBe('oauth_request_not_found');
  });

  it('declining sends access_denied back and grants nothing', async () => {
    const agent = await registerAgent(rig.t);
    const clientId = await registerClient();
    const consent = await authorize({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: cb.redirectUri,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      state: 'no',
    });
    const decided = await rig.t.http
      .post('/v1/oauth/consent')
      .set('Authorization', `Bearer ${agent.accessToken}`)
      .send({ request: consent.searchParams.get('request'), approve: false });
    const back = new URL(decided.body.redirect_to as string);
    expect([back.searchParams.get('error'), back.searchParams.get('state')]).toEqual(['access_denied', 'no']);
    expect(
      (await rig.t.http.get('/v1/oauth/grants').set('Authorization', `Bearer ${agent.accessToken}`)).body,
    ).toEqual([]);
  });

  it('takes a Client ID Metadata Document at a loopback http URL in sandbox mode, and refuses other http ones', async () => {
    const clientId = `${cb.origin}/client-metadata.json`;
    cb.serve('/client-metadata.json', {
      client_id: clientId,
      client_name: 'Metadata client',
      redirect_uris: [cb.redirectUri],
      token_endpoint_auth_method: 'none',
    });
    const { challenge } = pkce();
    const params = {
      response_type: 'code',
      redirect_uri: cb.redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const consent = await authorize({ ...params, client_id: clientId });
    const agent = await registerAgent(rig.t);
    const view = await rig.t.http
      .get('/v1/oauth/consent')
      .query({ request: consent.searchParams.get('request') })
      .set('Authorization', `Bearer ${agent.accessToken}`);
    expect(view.body).toMatchObject({
      client_id: clientId,
      client_name: 'Metadata client',
      client_host: new URL(cb.origin).host,
      verified_by: 'metadata_document',
    });

    for (const bad of ['http://10.1.2.3/client.json', 'http://192.168.0.10:8080/app/client.json']) {
      const res = await fetch(authorizeUrl({ ...params, client_id: bad }), { redirect: 'manual' });
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(await res.json()).toMatchObject({
        error: 'invalid_client',
        error_description: expect.stringContaining('loopback'),
      });
    }
    // A document whose client_id is not its own URL is refused.
    cb.serve('/impostor.json', {
      client_id: 'https://claude.ai/oauth/client.json',
      redirect_uris: [cb.redirectUri],
    });
    const impostor = await fetch(authorizeUrl({ ...params, client_id: `${cb.origin}/impostor.json` }), {
      redirect: 'manual',
    });
    expect(await impostor.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('publishes the metadata documents and keeps API keys working at /mcp', async () => {
    const server = (await (await fetch(`${base()}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(server).toMatchObject({
      issuer: base(),
      authorization_endpoint: `${base()}/oauth/authorize`,
      token_endpoint: `${base()}/oauth/token`,
      registration_endpoint: `${base()}/oauth/register`,
      revocation_endpoint: `${base()}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
    });
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      expect(await (await fetch(`${base()}${path}`)).json()).toMatchObject({
        resource: `${base()}/mcp`,
        authorization_servers: [base()],
      });
    }
    const agent = await registerAgent(rig.t);
    expect((await mcpList(agent.apiKey)).status).toBe(200);
  });
  it('authenticates confidential clients by their secret (Basic or form), compared as registered', async () => {
    const agent = await registerAgent(rig.t);
    const registered = await fetch(`${base()}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Confidential',
        redirect_uris: [cb.redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    });
    const { client_id: clientId, client_secret: secret } = (await registered.json()) as Record<
      string,
      string
    >;
    expect(secret).toMatch(/^lwcs_/);
    const { verifier, challenge } = pkce();
    const consent = await authorize({
      response_type: 'code',
      client_id: clientId,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const decided = await rig.t.http
      .post('/v1/oauth/consent')
      .set('Authorization', `Bearer ${agent.accessToken}`)
      .send({ request: consent.searchParams.get('request'), approve: true });
    const code = new URL(decided.body.redirect_to as string).searchParams.get('code')!;
    const exchange = (authorization: string | null, extra: Record<string, string> = {}) =>
      fetch(`${base()}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(authorization ? { authorization } : {}),
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          ...extra,
        }),
      });
    const basic = (s: string) => `Basic ${Buffer.from(`${clientId}:${s}`).toString('base64')}`;
    const wrong = await exchange(basic('lwcs_wrong'));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
    // Registered for Basic: the same secret in the form is another method, refused.
    const viaForm = await exchange(null, { client_id: clientId, client_secret: secret });
    expect(viaForm.status).toBe(401);
    expect((await exchange(null, { client_id: clientId })).status).toBe(401);
    const ok = await exchange(basic(secret));
    expect(ok.status).toBe(200);
  });

  // Last: it moves the file's clock a day on.
  it('deletes a registered client nobody approved within a day; an approved one stays', async () => {
    const agent = await registerAgent(rig.t);
    const unused = await registerClient();
    const { clientId: used } = await signIn(agent);
    rig.t.clock.advanceHours(25);
    const params = {
      response_type: 'code',
      redirect_uri: cb.redirectUri,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    };
    const expired = await fetch(authorizeUrl({ ...params, client_id: unused }), { redirect: 'manual' });
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ error: 'invalid_client' });
    await registerClient();
    const rows = await rig.t.db.query(`SELECT client_id FROM oauth_clients WHERE client_id = ANY($1)`, [
      [unused, used],
    ]);
    expect(rows).toEqual([{ client_id: used }]);
    const again = await authorize({ ...params, client_id: used });
    expect(`${again.origin}${again.pathname}`).toBe(`${base()}/console/oauth/consent`);
  });
});
