import { useReducer, useState, type Dispatch } from 'react';
import { useNavigate } from 'react-router';
import {
  createTaskRequestLimits,
  createTaskRequestTask_typeValues as TYPES,
  taskLocationLimits,
  taskRequirementsLocation_proofValues as PROOFS,
  workerRegisterSkillsValues as SKILLS,
} from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../../shared/api';
import { Checks, Field, SelectField, TextBox } from '../../shared/fields';
import { formatCents } from '../../shared/money';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { CoordinateFields } from '../components/CoordinateFields';
import { QuoteView } from '../components/QuoteView';
import { useAgent } from '../components/Shell';
import { useI18n } from '../i18n';
import { agentApi } from '../session';
import {
  answerSchema,
  BUILDER_KINDS,
  draftBody,
  draftReducer,
  linkPlace,
  newDraft,
  type DraftChange,
  type TaskDraft,
} from '../task-draft';
import { ActionError } from '../../shared/action-ui';
import { AnswerPreview } from '../components/AnswerPreview';

type Quote = Schemas['TaskQuoteResponse'];
/** What each section gets: the draft to show and the dispatch to change it. */
interface SectionProps {
  draft: TaskDraft;
  change: Dispatch<DraftChange>;
}

/**
 * The task form: one draft (task-draft.ts) edited by its sections. The place comes from coordinates or a pasted map
 * link (maplink.ts converts Chinese map datums to WGS-84). "Get a quote" sends the body to POST /v1/tasks/quote;
 * "Create" is offered only for the body that was quoted (any change asks for a new quote), with one idempotency key
 * per quoted body so a retried click never creates two tasks.
 */
export function TaskCreate() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [draft, change] = useReducer(draftReducer, undefined, () => newDraft(new Date()));
  const [quoted, setQuoted] = useState<{ body: string; quote: Quote; key: string } | null>(null);
  const quoting = useAction();
  const creating = useAction();
  const body = draftBody(draft);
  const bodyKey = JSON.stringify(body);
  const current = quoted && quoted.body === bodyKey ? quoted : null;

  const quote = quoting.onSubmit(async () => {
    creating.setError(null);
    const answer = await unwrap(agentApi.POST('/v1/tasks/quote', { body }));
    setQuoted({ body: bodyKey, quote: answer, key: crypto.randomUUID() });
  });
  const create = () =>
    void creating.run(async () => {
      if (!current) return;
      const task = await unwrap(
        agentApi.POST('/v1/tasks/create', { body: { ...body, idempotency_key: current.key } }),
      );
      void navigate(`/tasks/${task.task_id}`);
    });

  return (
    <>
      <h1>{t('nav.new_task')}</h1>
      <div className="two-col">
        <form className="card" onSubmit={quote} aria-label={t('nav.new_task')}>
          <WhatSection draft={draft} change={change} />
          <PlaceSection draft={draft} change={change} />
          <WhoSection draft={draft} change={change} />
          <TermsSection draft={draft} change={change} />
          <AnswersSection draft={draft} change={change} />
          <p>
            <button type="submit" disabled={quoting.busy}>
              {t('create.get_quote')}
            </button>
          </p>
          <ActionError action={quoting} />
        </form>
        <section className="card sticky" aria-labelledby="quote-h" aria-live="polite">
          <h2 id="quote-h">{t('create.quote')}</h2>
          {current ? (
            <>
              <QuoteView quote={current.quote} />
              <CreateButton quote={current.quote} busy={creating.busy} onCreate={create} />
            </>
          ) : (
            <p className="muted">{quoted ? t('create.quote_stale') : t('create.quote_first')}</p>
          )}
          <ActionError action={creating} />
          <AnswerPreview schema={answerSchema(draft.answers)} />
        </section>
      </div>
    </>
  );
}

function CreateButton(props: { quote: Quote; busy: boolean; onCreate: () => void }) {
  const { t, locale } = useI18n();
  return (
    <p>
      <button type="button" disabled={props.busy || !props.quote.can_create} onClick={props.onCreate}>
        {t('create.create', { amount: formatCents(props.quote.total_to_hold_cents, locale) })}
      </button>
    </p>
  );
}

/** What the task is: its title, what the worker should do, its type. */
function WhatSection({ draft, change }: SectionProps) {
  const { t } = useI18n();
  const set = (fields: Partial<TaskDraft>) => change({ type: 'set', fields });
  return (
    <>
      <Field
        id="t-title"
        label={t('create.title')}
        required
        maxLength={createTaskRequestLimits.title.maxLength}
        value={draft.title}
        onChange={(title) => set({ title })}
      />
      <TextBox
        id="t-desc"
        label={t('create.description')}
        required
        value={draft.description}
        onChange={(description) => set({ description })}
      />
      <SelectField
        id="t-type"
        label={t('create.type')}
        value={draft.taskType}
        options={TYPES}
        optionLabel={(ty) => t(`type.${ty}`)}
        onChange={(taskType) => set({ taskType })}
      />
    </>
  );
}

/** Where: a map link read into coordinates (the note says what was read or converted), an address, the radius. */
function PlaceSection({ draft, change }: SectionProps) {
  const { t } = useI18n();
  const set = (fields: Partial<TaskDraft>) => change({ type: 'set', fields });
  const place = linkPlace(draft.link);
  const note = !draft.link.trim()
    ? t('create.link_hint')
    : place
      ? t(`create.link_${place.datum}`, { lat: place.latitude, lng: place.longitude })
      : t('create.link_unknown');
  return (
    <fieldset>
      <legend>{t('create.place')}</legend>
      <label htmlFor="t-link">{t('create.map_link')}</label>
      <input
        id="t-link"
        value={draft.link}
        placeholder="https://maps.google.com/?q=31.2304,121.4737"
        aria-describedby="t-link-note"
        onChange={(e) => change({ type: 'link', value: e.target.value })}
      />
      <p id="t-link-note" className="hint" aria-live="polite">
        {note}
      </p>
      <CoordinateFields
        idPrefix="t"
        latitude={draft.latitude}
        longitude={draft.longitude}
        onChange={(fields) => set(fields)}
      />
      <Field
        id="t-address"
        label={t('create.address')}
        value={draft.address}
        onChange={(address) => set({ address })}
      />
      <Field
        id="t-radius"
        label={t('create.radius')}
        type="number"
        min={taskLocationLimits.max_distance_meters.minimum}
        max={taskLocationLimits.max_distance_meters.maximum}
        value={draft.radius}
        onChange={(radius) => set({ radius })}
      />
    </fieldset>
  );
}

/** Who may take it: the skills required and the location proof asked of them. */
function WhoSection({ draft, change }: SectionProps) {
  const { t } = useI18n();
  return (
    <>
      <fieldset>
        <legend>{t('create.skills')}</legend>
        <Checks
          options={SKILLS}
          checked={draft.skills}
          onChange={(skills) => change({ type: 'set', fields: { skills } })}
          optionLabel={(skill) => t(`skill.${skill}`)}
        />
      </fieldset>
      <SelectField
        id="t-proof"
        label={t('create.proof')}
        value={draft.proof}
        options={PROOFS}
        optionLabel={(p) => t(`proof.${p}`)}
        onChange={(proof) => change({ type: 'set', fields: { proof } })}
      />
    </>
  );
}

/** The terms: budget per worker, how many workers, the deadline, and in sandbox mode a test clock. */
function TermsSection({ draft, change }: SectionProps) {
  const { t } = useI18n();
  const { sandbox } = useAgent();
  const set = (fields: Partial<TaskDraft>) => change({ type: 'set', fields });
  const clocks = useAsync(
    () => (sandbox ? unwrap(agentApi.GET('/v1/sandbox/clocks')) : Promise.resolve({ data: [] })),
    [sandbox],
  );
  return (
    <>
      <div className="grid2">
        <Field
          id="t-budget"
          label={t('create.budget')}
          required
          inputMode="decimal"
          value={draft.budget}
          onChange={(budget) => set({ budget })}
        />
        <Field
          id="t-workers"
          label={t('create.workers')}
          type="number"
          min={createTaskRequestLimits.max_workers.minimum}
          max={createTaskRequestLimits.max_workers.maximum}
          required
          value={draft.workers}
          onChange={(workers) => set({ workers })}
        />
      </div>
      <Field
        id="t-deadline"
        label={t('create.deadline')}
        type="datetime-local"
        required
        value={draft.deadline}
        onChange={(deadline) => set({ deadline })}
      />
      {sandbox && (
        <>
          <label htmlFor="t-clock">{t('create.test_clock')}</label>
          <select id="t-clock" value={draft.clock} onChange={(e) => set({ clock: e.target.value })}>
            <option value="">{t('create.no_clock')}</option>
            {(clocks.data?.data ?? []).map((c) => (
              <option key={c.clock_id} value={c.clock_id}>
                {c.name || c.clock_id}
              </option>
            ))}
          </select>
        </>
      )}
    </>
  );
}

/**
 * The answer_schema builder: questions added one by one, each with its field name, the question, its answer type,
 * whether it is required and, by type, its choices or limits. The preview beside the quote shows the worker's form.
 */
function AnswersSection({ draft, change }: SectionProps) {
  const { t } = useI18n();
  return (
    <fieldset>
      <legend>{t('schema.title')}</legend>
      <p className="hint">{t('schema.hint')}</p>
      {draft.answers.map((f, index) => {
        const set = (fields: Partial<(typeof draft.answers)[number]>) =>
          change({ type: 'set_field', index, fields });
        const n = index + 1;
        const id = `q${n}`;
        return (
          <fieldset key={index} className="question">
            <legend>{t('schema.question', { n })}</legend>
            <div className="grid2">
              <Field
                id={`${id}-title`}
                label={t('schema.field_title')}
                required
                value={f.title}
                onChange={(title) => set({ title })}
              />
              <Field
                id={`${id}-name`}
                label={t('schema.name')}
                required
                value={f.name}
                onChange={(name) => set({ name })}
              />
            </div>
            <SelectField
              id={`${id}-kind`}
              label={t('schema.kind')}
              value={f.kind}
              options={BUILDER_KINDS}
              optionLabel={(k) => t(`kind.${k}`)}
              onChange={(kind) => set({ kind })}
            />
            {(f.kind === 'choice' || f.kind === 'multi_select') && (
              <TextBox
                id={`${id}-options`}
                label={t('schema.options')}
                value={f.options}
                onChange={(options) => set({ options })}
              />
            )}
            {(f.kind === 'number' || f.kind === 'integer') && (
              <div className="grid2">
                <Field
                  id={`${id}-min`}
                  label={t('schema.minimum')}
                  inputMode="decimal"
                  value={f.minimum}
                  onChange={(minimum) => set({ minimum })}
                />
                <Field
                  id={`${id}-max`}
                  label={t('schema.maximum')}
                  inputMode="decimal"
                  value={f.maximum}
                  onChange={(maximum) => set({ maximum })}
                />
              </div>
            )}
            <label className="choice">
              <input
                type="checkbox"
                checked={f.required}
                onChange={(e) => set({ required: e.target.checked })}
              />
              {t('schema.required')}
            </label>
            <button
              type="button"
              className="secondary"
              onClick={() => change({ type: 'remove_field', index })}
            >
              {t('schema.remove', { n })}
            </button>
          </fieldset>
        );
      })}
      <p>
        <button type="button" className="secondary" onClick={() => change({ type: 'add_field' })}>
          {t('schema.add')}
        </button>
      </p>
    </fieldset>
  );
}
