import { stepUpPasskey, stepUpRecoveryCode, stepUpTotp } from '../../api/session.ts';
import { useWrite } from '../../api/mutations.ts';

// Passing a second factor again. Nothing cached changes: the refused request is what is sent again (api()).

export type StepUpFactor = { kind: 'totp' | 'recoveryCode'; code: string } | { kind: 'passkey' };
export const useStepUp = () =>
  useWrite((factor: StepUpFactor) =>
    factor.kind === 'passkey' ? stepUpPasskey() : factor.kind === 'totp' ? stepUpTotp(factor.code) : stepUpRecoveryCode(factor.code),
  );
