import { useState } from 'react';
import { useI18n } from '../i18n/I18nContext.tsx';

/**
 * A form's field messages (translation keys), checked on submit: `problem(field)` is the
 * translated text to show, and `edit(field, set)` wraps a setter so that a field loses its
 * message as soon as it is edited while the others keep theirs until the next submit.
 */
export function useFieldProblems<Field extends string>() {
  const { t } = useI18n();
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const problem = (field: Field) => {
    const key = problems[field];
    return key ? t(key) : undefined;
  };
  const edit = (field: Field, set: (value: string) => void) => (value: string) => {
    set(value);
    if (problems[field]) setProblems((p) => ({ ...p, [field]: undefined }));
  };
  return { problems, setProblems, problem, edit };
}
