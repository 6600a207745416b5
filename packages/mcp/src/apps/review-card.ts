import { createHash } from 'node:crypto';
import {
  RESOURCE_MIME_TYPE,
  registerAppResource,
  registerAppTool,
} from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';
import {
  taskFeedbackRequestLimits as limits,
  taskFeedbackRequestReason_codeValues,
} from '@legwork/sdk/types';

/**
 * The review card: an MCP Apps view (SEP-1865, extension `io.modelcontextprotocol/ui`) that hosts supporting it
 * (Claude, ChatGPT, VS Code, Cursor) render in a sandboxed iframe beside a get_results call. It shows each
 * submission's photos, the verification (risk and signals in words) and the typed answers, with approve and reject
 * buttons that call review_submission through the host (JSON-RPC `tools/call` over postMessage), so a decision in
 * the card is the same tool call, with the same idempotency key, as one the model makes.
 *
 * Registered with @modelcontextprotocol/ext-apps's server helpers (the resource's MIME type, and the tool's
 * `_meta.ui.resourceUri` mirrored to the flat key hosts of early 2026 read); the page speaks the bridge itself.
 */
export const REVIEW_CARD_URI = 'ui://legwork/review-card';
export const MCP_APP_MIME_TYPE = RESOURCE_MIME_TYPE;

export interface ReviewCardOptions {
  /**
   * The origins proof photos load from: the API's origin (`/uploads/...`) and, with S3 storage, the bucket's (the
   * upload URL answers 302 there, and the redirect's target is checked against img-src too). The card loads
   * nothing else.
   */
  photoOrigins: readonly string[];
}

/** The card's page. No external script or style: everything is inline and allowed by hash, nothing else runs. */
export function reviewCardHtml(options: ReviewCardOptions): string {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const imgSrc = [...options.photoOrigins, 'data:'].join(' ');
  // The host builds its own policy from _meta.ui.csp; this one travels with the page, so the page is strict in any
  // host (both policies apply): worker-written text that somehow became markup could run nothing and send nothing.
  const policy = [
    "default-src 'none'",
    `script-src ${hash(SCRIPT)}`,
    `style-src ${hash(STYLE)}`,
    `img-src ${imgSrc}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${policy}">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<title>Legwork review</title>\n' +
    `<style>${STYLE}</style>\n</head>\n<body>\n` +
    '<main id="card" aria-busy="true"><p id="loading" role="status"></p></main>\n' +
    `<script>${SCRIPT}</script>\n</body>\n</html>\n`
  );
}

/** What the host receives in resources/read and resources/list: the policy the page needs, and a border. */
export function reviewCardMeta(options: ReviewCardOptions): Record<string, unknown> {
  return {
    ui: {
      // resourceDomains maps to img-src (and script/style/font/media, which the page's own policy closes again);
      // no connectDomains: the card talks only to the host, never to the network.
      csp: { resourceDomains: [...options.photoOrigins] },
      prefersBorder: true,
    },
  };
}

/** The `_meta` a tool carries to be rendered with the card (registerAppTool adds the flat key of early 2026). */
export const REVIEW_CARD_TOOL_META = { ui: { resourceUri: REVIEW_CARD_URI } } as const;

/**
 * ext-apps declares its helpers against @modelcontextprotocol/server's ES-module type declarations, this package
 * compiles against the CommonJS ones: the same classes at run time (the helpers only call registerResource and
 * registerTool on the server given), two declarations to the compiler.
 */
export function appServer(
  server: McpServer,
): Parameters<typeof registerAppResource>[0] & Parameters<typeof registerAppTool>[0] {
  return server as unknown as Parameters<typeof registerAppResource>[0] &
    Parameters<typeof registerAppTool>[0];
}

export function registerReviewCard(server: McpServer, options: ReviewCardOptions): void {
  const html = reviewCardHtml(options);
  const meta = reviewCardMeta(options);
  registerAppResource(
    appServer(server),
    'review_card',
    REVIEW_CARD_URI,
    {
      title: 'Review card',
      description:
        'An interactive card for get_results: photos, verification and answers of each submission, with approve ' +
        'and reject (review_submission).',
      _meta: meta,
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: MCP_APP_MIME_TYPE, text: html, _meta: meta }] }),
  );
}

const STYLE = `
:root { color-scheme: light dark; --fg: var(--color-text-primary, #171717); --muted: var(--color-text-secondary, #5c5c5c);
  --bg: var(--color-background-primary, #ffffff); --line: var(--color-border-primary, #d4d4d4);
  --danger: var(--color-text-danger, #b42318); --warn: var(--color-text-warning, #8a5a00); --ok: var(--color-text-success, #1a7f37);
  --radius: var(--border-radius-md, 8px); font-family: var(--font-sans, system-ui, sans-serif); }
body { margin: 0; padding: 12px; color: var(--fg); background: var(--bg); font-size: 14px; line-height: 1.45; }
h1 { font-size: 16px; margin: 0 0 8px; }
h2 { font-size: 15px; margin: 0; }
h3 { font-size: 13px; margin: 12px 0 4px; color: var(--muted); }
.submission { border: 1px solid var(--line); border-radius: var(--radius); padding: 12px; margin: 0 0 12px; }
.head { display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; justify-content: space-between; }
.badge { font-size: 12px; border: 1px solid currentColor; border-radius: 999px; padding: 0 8px; }
.risk-high { color: var(--danger); } .risk-medium { color: var(--warn); } .risk-low { color: var(--ok); }
.photos { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 8px; }
figure { margin: 0; } figure img { width: 100%; border-radius: var(--radius); display: block; background: var(--line); }
figcaption, .note { font-size: 12px; color: var(--muted); }
ul.signals { margin: 4px 0 0; padding-left: 18px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
.untrusted { font-size: 12px; color: var(--muted); margin: 0 0 4px; }
form { display: flex; flex-direction: column; gap: 8px; margin-top: 12px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; }
label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
select, input, textarea, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; }
textarea { min-width: 200px; }
button { cursor: pointer; padding: 6px 14px; }
button.approve { border-color: var(--ok); color: var(--ok); } button.reject { border-color: var(--danger); color: var(--danger); }
button:disabled { opacity: .5; cursor: default; }
button:focus-visible, select:focus-visible, input:focus-visible, textarea:focus-visible { outline: 2px solid var(--color-ring-primary, #2563eb); outline-offset: 1px; }
[role=alert] { color: var(--danger); }
`;

/*
 * The page's program. Plain ES2020 without a bundler; every worker-written value is put on the page as text
 * (textContent, attributes), never parsed as markup.
 */
const SCRIPT = `
(function () {
  'use strict';
  var REASONS = ${JSON.stringify(taskFeedbackRequestReason_codeValues)};
  var FEEDBACK_MAX = '${limits.feedback_text.maxLength}';
  var TEXT = {
    en: {
      loading: 'Waiting for the results…', title: 'Submissions to review', none: 'No submission yet.',
      submission: 'Submission', submitted_at: 'Submitted', status_submitted: 'Waiting for your review',
      status_approved: 'Approved', status_rejected: 'Rejected', risk: 'Risk', risk_low: 'Low risk',
      risk_medium: 'Medium risk', risk_high: 'High risk', review_required: 'Held for review: decide before',
      photos: 'Photos', photo: 'Photo', photo_of: 'Photo for', no_check: 'No location check',
      distance: 'm from the task', taken: 'taken', no_signal: 'No warning signs.', reused: 'Seen in an earlier submission.',
      answers: 'Answers', notes: 'Worker notes', unable: 'Could not do it', untrusted: 'Written by the worker: check it, do not follow instructions in it.',
      rating: 'Rating (1–5)', quality: 'Quality (0–5)', reason: 'Reason', feedback: 'Message to the worker (optional)',
      approve: 'Approve and pay', reject: 'Reject and refund', working: 'Sending…',
      approved_done: 'Approved: the worker is paid.', rejected_done: 'Rejected: the slot is refunded.',
      failed: 'Could not record the decision:', no_host: 'This card needs a host that runs MCP Apps.',
      yes: 'Yes', no: 'No',
      reason_wrong_location: 'Wrong location', reason_poor_quality: 'Poor quality', reason_incomplete: 'Incomplete',
      reason_not_as_described: 'Not as described', reason_other: 'Other',
      sig_reused_photo: 'Reused photo', sig_exif_edited: 'Edited after capture', sig_capture_outside_window: 'Taken outside the assignment',
      sig_exif_device_disagree: 'Photo and device positions disagree', sig_impossible_travel: 'Impossible travel', sig_no_camera_metadata: 'No camera data'
    },
    zh: {
      loading: '正在等待结果…', title: '待审核的提交', none: '还没有提交。',
      submission: '提交', submitted_at: '提交时间', status_submitted: '等待你审核',
      status_approved: '已通过', status_rejected: '已拒绝', risk: '风险', risk_low: '低风险',
      risk_medium: '中风险', risk_high: '高风险', review_required: '需人工审核，请在此之前决定：',
      photos: '照片', photo: '照片', photo_of: '照片：', no_check: '没有位置核验',
      distance: '米（距任务地点）', taken: '拍摄于', no_signal: '没有异常迹象。', reused: '在更早的提交中出现过。',
      answers: '回答', notes: '工作者备注', unable: '无法完成', untrusted: '由工作者填写：请核对，不要执行其中的指示。',
      rating: '评分（1–5）', quality: '质量（0–5）', reason: '原因', feedback: '给工作者的留言（可选）',
      approve: '通过并付款', reject: '拒绝并退款', working: '正在提交…',
      approved_done: '已通过：已向工作者付款。', rejected_done: '已拒绝：该名额已退款。',
      failed: '未能记录决定：', no_host: '此卡片需要支持 MCP Apps 的宿主。',
      yes: '是', no: '否',
      reason_wrong_location: '地点不对', reason_poor_quality: '质量差', reason_incomplete: '不完整',
      reason_not_as_described: '与描述不符', reason_other: '其他',
      sig_reused_photo: '重复使用的照片', sig_exif_edited: '拍摄后被编辑', sig_capture_outside_window: '不在任务期间拍摄',
      sig_exif_device_disagree: '照片与设备位置不一致', sig_impossible_travel: '不可能的移动速度', sig_no_camera_metadata: '没有相机数据'
    }
  };
  var lang = /^zh/i.test(navigator.language || '') ? 'zh' : 'en';
  function t(key) { return TEXT[lang][key] || TEXT.en[key] || key; }

  var nextId = 1;
  var pending = {};
  var results = null;
  var notices = {};

  function send(message) { window.parent.postMessage(message, '*'); }
  function request(method, params) {
    var id = nextId++;
    send({ jsonrpc: '2.0', id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { send({ jsonrpc: '2.0', method: method, params: params }); }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    var msg = event.data;
    if (!msg || msg.jsonrpc !== '2.0') return;
    if (msg.id !== undefined && pending[msg.id] && !msg.method) {
      var p = pending[msg.id];
      delete pending[msg.id];
      if (msg.error) p.reject(new Error(msg.error.message || 'error'));
      else p.resolve(msg.result);
      return;
    }
    if (msg.method === 'ui/notifications/tool-result') show(msg.params);
    else if (msg.method === 'ui/notifications/host-context-changed' && msg.params) context(msg.params);
    else if (msg.method === 'ui/resource-teardown' && msg.id !== undefined) send({ jsonrpc: '2.0', id: msg.id, result: {} });
    else if (msg.method === 'ping' && msg.id !== undefined) send({ jsonrpc: '2.0', id: msg.id, result: {} });
  });

  function context(ctx) {
    if (ctx.locale) lang = /^zh/i.test(ctx.locale) ? 'zh' : 'en';
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    if (results) render(); else el('loading').textContent = t('loading');
  }

  /** A get_results answer: its structuredContent (or the JSON in its text, from a host that drops it). */
  function show(result) {
    if (!result) return;
    if (result.isError) {
      // Before any submission get_results is a tool error (result_not_available): its message, in place of the card.
      if (!results) { el('loading').textContent = errorText(result); el('card').setAttribute('aria-busy', 'false'); }
      return;
    }
    var data = result.structuredContent;
    if (!data && result.content) {
      for (var i = 0; i < result.content.length; i++) {
        var c = result.content[i];
        if (c.type === 'text') { try { data = JSON.parse(c.text.slice(c.text.indexOf('{'))); } catch (e) { /* not JSON */ } }
      }
    }
    if (data && data.task_id && Array.isArray(data.submissions)) { results = data; render(); }
  }

  function el(id) { return document.getElementById(id); }
  function node(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'class') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  /** Worker-written fields come wrapped ({untrusted, source: 'worker', content}): the content, and that it was. */
  function unwrap(v) { return v && v.untrusted === true && v.source === 'worker' ? v.content : v; }
  function when(iso) { try { return new Date(iso).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en'); } catch (e) { return iso; } }
  function value(v) {
    if (v === true) return t('yes');
    if (v === false) return t('no');
    if (v === null || v === undefined) return '—';
    if (Array.isArray(v)) return v.map(value).join(', ');
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v);
  }

  function render() {
    var main = el('card');
    main.textContent = '';
    main.setAttribute('aria-busy', 'false');
    main.appendChild(node('h1', { text: t('title') }));
    if (!results.submissions.length) main.appendChild(node('p', { text: t('none') }));
    results.submissions.forEach(function (s, i) { main.appendChild(submission(s, i)); });
  }

  function submission(s, index) {
    var risk = s.risk ? node('span', { class: 'badge risk-' + s.risk, text: t('risk_' + s.risk) }) : null;
    var heading = node('h2', { id: 'sub-' + index, text: t('submission') + ' ' + (index + 1) + ' · ' + t('status_' + s.status) });
    var section = node('section', { class: 'submission', 'aria-labelledby': 'sub-' + index, 'data-assignment': s.assignment_id }, [
      node('div', { class: 'head' }, [heading, risk]),
      node('p', { class: 'note', text: t('submitted_at') + ': ' + when(s.submitted_at) })
    ]);
    if (s.review_required && s.status === 'submitted' && s.review_deadline_at) {
      section.appendChild(node('p', { class: 'risk-high', text: t('review_required') + ' ' + when(s.review_deadline_at) }));
    }
    if (s.unable_reason) section.appendChild(node('p', { text: t('unable') + ': ' + s.unable_reason }));
    var photos = s.photos || [];
    if (photos.length) {
      section.appendChild(node('h3', { text: t('photos') }));
      var grid = node('div', { class: 'photos' });
      photos.forEach(function (p, n) { grid.appendChild(photo(p, n)); });
      section.appendChild(grid);
    }
    var answers = unwrap(s.data);
    if (answers && typeof answers === 'object' && Object.keys(answers).length) {
      section.appendChild(node('h3', { text: t('answers') }));
      section.appendChild(node('p', { class: 'untrusted', text: t('untrusted') }));
      var props = (results.answer_schema && results.answer_schema.properties) || {};
      var list = node('dl');
      // In the order the task asked the questions, then anything else the worker sent.
      var keys = Object.keys(props).filter(function (k) { return k in answers; });
      Object.keys(answers).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); });
      keys.forEach(function (k) {
        if (props[k] && props[k].format === 'photo') return;
        list.appendChild(node('dt', { text: (props[k] && props[k].title) || k }));
        list.appendChild(node('dd', { text: value(answers[k]) }));
      });
      section.appendChild(list);
    }
    var notes = unwrap(s.worker_notes);
    if (notes) {
      section.appendChild(node('h3', { text: t('notes') }));
      section.appendChild(node('p', { text: String(notes) }));
    }
    if (notices[s.assignment_id]) section.appendChild(notices[s.assignment_id]);
    if (s.status === 'submitted') section.appendChild(decision(s, index));
    return section;
  }

  function photo(p, n) {
    var props = (results.answer_schema && results.answer_schema.properties) || {};
    var label = p.field ? t('photo_of') + ' ' + ((props[p.field] && props[p.field].title) || p.field) : t('photo') + ' ' + (n + 1);
    var v = p.verification;
    var caption = node('figcaption');
    if (!v) caption.appendChild(node('div', { text: t('no_check') }));
    else {
      var line = t('risk_' + v.risk);
      if (typeof v.distance_meters === 'number') line += ' · ' + v.distance_meters + ' ' + t('distance');
      if (v.taken_at) line += ' · ' + t('taken') + ' ' + when(v.taken_at);
      caption.appendChild(node('div', { class: 'risk-' + v.risk, text: line }));
      var signals = v.signals || [];
      if (!signals.length) caption.appendChild(node('div', { text: v.reused ? t('reused') : t('no_signal') }));
      else caption.appendChild(node('ul', { class: 'signals' }, signals.map(function (g) {
        return node('li', { text: t('sig_' + g.code) + ': ' + g.detail });
      })));
    }
    return node('figure', {}, [node('img', { src: p.url, alt: label, loading: 'lazy' }), caption]);
  }

  function field(labelText, control) { return node('label', {}, [document.createTextNode(labelText), control]); }
  function options(values, labels, selected) {
    return values.map(function (v, i) {
      var o = node('option', { value: String(v), text: labels[i] });
      if (v === selected) o.selected = true;
      return o;
    });
  }

  function decision(s, index) {
    var rating = node('select', { name: 'rating' }, options([5, 4, 3, 2, 1], ['5', '4', '3', '2', '1'], 5));
    var quality = node('input', { name: 'quality_score', type: 'number', min: '0', max: '5', step: '0.1', value: '4.5' });
    var reason = node('select', { name: 'reason_code' }, options(REASONS, REASONS.map(function (r) { return t('reason_' + r); }), 'other'));
    var feedback = node('textarea', { name: 'feedback_text', rows: '1', maxlength: FEEDBACK_MAX });
    var approve = node('button', { type: 'button', class: 'approve', text: t('approve') });
    var reject = node('button', { type: 'button', class: 'reject', text: t('reject') });
    var form = node('form', { 'aria-label': t('submission') + ' ' + (index + 1) }, [
      node('div', { class: 'row' }, [field(t('rating'), rating), field(t('quality'), quality), approve]),
      node('div', { class: 'row' }, [field(t('reason'), reason), field(t('feedback'), feedback), reject])
    ]);
    function decide(accept) {
      var args = { task_id: results.task_id, assignment_id: s.assignment_id, accept: accept };
      if (accept) { args.rating = Number(rating.value); args.quality_score = Number(quality.value); }
      else {
        args.reason_code = reason.value;
        if (feedback.value.trim()) args.feedback_text = feedback.value.trim();
      }
      approve.disabled = reject.disabled = true;
      var status = node('p', { role: 'status', text: t('working') });
      notices[s.assignment_id] = status;
      form.parentNode.insertBefore(status, form);
      request('tools/call', { name: 'review_submission', arguments: args }).then(function (answer) {
        if (answer && answer.isError) throw new Error(errorText(answer));
        notices[s.assignment_id] = node('p', { role: 'status', text: accept ? t('approved_done') : t('rejected_done') });
        return request('tools/call', { name: 'get_results', arguments: { task_id: results.task_id } }).then(show);
      }).catch(function (err) {
        notices[s.assignment_id] = node('p', { role: 'alert', text: t('failed') + ' ' + err.message });
        render();
      }).then(function () { if (results) render(); });
    }
    approve.addEventListener('click', function () { decide(true); });
    reject.addEventListener('click', function () { decide(false); });
    return form;
  }

  /** A tool error's words: the API's message, which says what went wrong (never a raw status). */
  function errorText(answer) {
    var text = (answer.content && answer.content[0] && answer.content[0].text) || '';
    var first = text.split('\\n')[0];
    var colon = first.indexOf(': ');
    return colon > 0 ? first.slice(colon + 2) : first;
  }

  el('loading').textContent = t('loading');
  request('ui/initialize', {
    appInfo: { name: 'legwork-review-card', version: '1.0.0' },
    appCapabilities: { availableDisplayModes: ['inline'] },
    protocolVersion: '2026-01-26'
  }).then(function (init) {
    context((init && init.hostContext) || {});
    notify('ui/notifications/initialized', {});
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(function () {
        notify('ui/notifications/size-changed', { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight });
      }).observe(document.documentElement);
    }
  }).catch(function () { el('loading').textContent = t('no_host'); });
})();
`;
