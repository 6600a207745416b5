import { formFields } from '../../shared/answer-form';
import type { Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { StatusBadge } from '../../shared/StatusBadge';
import { useI18n } from '../i18n';

type Submission = Schemas['SubmissionView'];

/**
 * A schema task's answers as a table: one row a submission, one column a field in the schema's order (as the export
 * has them). A photo field is a link to its photo; an unanswered optional field is a dash.
 */
export function AnswersTable(props: { schema: unknown; submissions: readonly Submission[] }) {
  const { t, locale } = useI18n();
  const fields = formFields(props.schema);
  if (fields.length === 0) return null;
  return (
    <section aria-labelledby="answers-h">
      <h2 id="answers-h">{t('answers.title')}</h2>
      {props.submissions.length === 0 ? (
        <p className="muted">{t('answers.none')}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('answers.worker')}</th>
                <th scope="col">{t('answers.submitted')}</th>
                {fields.map((f) => (
                  <th key={f.name} scope="col" title={f.name}>
                    {f.title}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.submissions.map((s) => (
                <tr key={s.assignment_id}>
                  <td>
                    <span className="mono">{s.worker_id.slice(0, 8)}</span> <StatusBadge status={s.status} />
                  </td>
                  <td>{formatDateTime(s.submitted_at, locale)}</td>
                  {fields.map((f) => (
                    <td key={f.name}>
                      <Cell
                        value={s.data[f.name]}
                        photo={f.kind === 'photo'}
                        yes={t('schema.yes')}
                        no={t('schema.no')}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Cell(props: { value: unknown; photo: boolean; yes: string; no: string }) {
  const v = props.value;
  if (v == null || v === '') return <>—</>;
  if (props.photo && typeof v === 'string')
    return (
      <a href={v} target="_blank" rel="noreferrer">
        <img className="answer-thumb" src={v} alt="" />
      </a>
    );
  if (typeof v === 'boolean') return <>{v ? props.yes : props.no}</>;
  if (Array.isArray(v)) return <>{v.join(', ')}</>;
  if (typeof v === 'string' || typeof v === 'number') return <>{String(v)}</>;
  return <span className="mono">{JSON.stringify(v)}</span>;
}
