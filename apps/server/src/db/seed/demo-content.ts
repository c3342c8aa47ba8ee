import { contentKeys, rulesKey } from '@rewards/contract';
import type { DemoSeedContext } from './demo-context.ts';

/*
 * The demo program's texts, in Markdown, in the three languages the demo client offers.
 * Rules use ### headings (the page gives each program an h2); the FAQs are one entry whose
 * `## question` sections the web turns into an accordion; the privacy texts use ## headings.
 */

const SALES = 'Sales Incentive 2026';
const SERVICE = 'Service Awards';

const enUS: Record<string, string> = {
  [rulesKey(SALES)]:
    `The Sales Incentive 2026 rewards members of the sales team for new business won between **1 January and 31 December 2026**.

### Who can take part
- Employees of Acme in a sales role on 1 January 2026, or who join a sales role during the year.
- Contractors and agency staff are not eligible.

### How points are earned
| Achievement | Acme Points |
|---|---|
| A new customer contract signed | 500 |
| Each full 10,000 USD of first-year revenue | 100 |
| Quarterly target reached | 1,000 |
| Annual target exceeded by 20% or more | 5,000 |

Points are awarded at the end of the month after the sale is confirmed by Finance.

### Good to know
1. Sales shared between several people are split equally unless the manager says otherwise.
2. A cancelled contract removes the points it earned.
3. Acme may change these rules with 30 days’ notice on this page.`,

  [rulesKey(SERVICE)]: `Service Awards thank employees for their years with Acme.

### Milestones
| Years of service | Acme Points |
|---|---|
| 1 year | 250 |
| 5 years | 1,500 |
| 10 years | 4,000 |
| 15 years and every 5 years after | 6,000 |

### How it works
- Points arrive in your account in the month of your work anniversary.
- Time on a leave of absence counts towards your years of service.
- If you leave Acme, points already awarded stay yours until they expire.`,

  [contentKeys.faqs]: `## What are Acme Points?
Acme Points are the reward currency of this program. You earn them through the programs you take part in and spend them on rewards in the catalogs.

## How do I earn points?
Each program has its own rules: open **Rules** at the bottom of the page to read them. Your activity history lists every award as it arrives.

## How do I redeem points in the catalog?
From the home page, choose a catalog tile or the **Redeem** menu. The catalog opens in a new tab with your balance; the points of an order are taken from your account when you confirm it.

## What is an on-the-spot code?
A one-time code a manager can hand you to recognise great work straight away. Enter it in the on-the-spot box on the home page and its points are added to your balance at once. Each code can be used only once.

## Do my points expire?
Points stay valid for 24 months after the month in which you earned them. The oldest points are always used first.

## How do I change my password or my language?
Open **Profile** from the menu at the top of the page. You can choose another language from the language selector at any time.

## Who can I contact if something is wrong?
Use the [Contact us](/contact) page: choose a topic, describe the issue and our support team will answer within two working days.`,

  [contentKeys.privacyPolicy]: `Acme Corporation (“Acme”, “we”) runs the Acme Rewards program. This policy explains which personal details we use, why, and the choices you have.

## What we collect
- Your name, work e-mail address, employee or account number and language.
- The points you earn and spend, and the rewards you order.
- Messages you send us through the Contact us page.
- Technical details needed to keep you signed in securely, such as a session identifier.

## Why we use it
We use your details only to run the program: to keep your account, record your points, deliver your rewards and answer your questions. We do not use them for advertising.

## Who we share it with
We share only what is needed with the partners who fulfil rewards (catalog and delivery companies). They may use your details only for that purpose. We never sell your details.

## How long we keep it
We keep your account while you take part in the program and for up to two years afterwards, unless the law requires longer.

## Your rights
You may ask to see, correct or delete your details, or object to how we use them. Write to us through the Contact us page or at privacy@acme.example.`,

  [contentKeys.privacyNotice]: `This notice explains the storage this site uses in your browser.

## What we store
- **A session identifier** while you are signed in, so that you stay signed in from page to page. It is removed when you sign out or close the browser.
- **Your language and your account summary** in the browser’s session storage, so that pages load quickly. They are cleared when you close the tab.
- **Whether you have read this notice**, so that we do not ask again.

## What we do not do
We do not use advertising cookies, tracking pixels or analytics that follow you to other sites.

## Your choice
The storage above is needed for the site to work. If you block it in your browser, you will not be able to sign in.

For how Acme uses your personal details, read the [privacy policy](/privacy-shield).`,
};

const frFR: Record<string, string> = {
  [rulesKey(SALES)]:
    `Le programme Sales Incentive 2026 récompense les membres de l’équipe commerciale pour les nouvelles affaires conclues entre le **1er janvier et le 31 décembre 2026**.

### Qui peut participer
- Les salariés d’Acme occupant un poste commercial au 1er janvier 2026 ou rejoignant un poste commercial en cours d’année.
- Les prestataires et intérimaires ne sont pas éligibles.

### Comment gagner des points
| Réalisation | Points Acme |
|---|---|
| Signature d’un contrat avec un nouveau client | 500 |
| Chaque tranche complète de 10 000 USD de chiffre d’affaires la première année | 100 |
| Objectif trimestriel atteint | 1 000 |
| Objectif annuel dépassé d’au moins 20 % | 5 000 |

Les points sont crédités à la fin du mois suivant la confirmation de la vente par le service financier.

### Bon à savoir
1. Une vente partagée entre plusieurs personnes est répartie à parts égales, sauf décision contraire du responsable.
2. Un contrat annulé entraîne le retrait des points obtenus.
3. Acme peut modifier ce règlement moyennant un préavis de 30 jours publié sur cette page.`,

  [rulesKey(SERVICE)]: `Les Service Awards remercient les salariés pour leurs années passées chez Acme.

### Étapes
| Ancienneté | Points Acme |
|---|---|
| 1 an | 250 |
| 5 ans | 1 500 |
| 10 ans | 4 000 |
| 15 ans, puis tous les 5 ans | 6 000 |

### Fonctionnement
- Les points sont crédités sur votre compte le mois de votre anniversaire d’embauche.
- Les périodes de congé comptent dans votre ancienneté.
- Si vous quittez Acme, les points déjà attribués restent à vous jusqu’à leur expiration.`,

  [contentKeys.faqs]: `## Que sont les points Acme ?
Les points Acme sont la monnaie de ce programme. Vous les gagnez grâce aux programmes auxquels vous participez et les dépensez en récompenses dans les catalogues.

## Comment gagner des points ?
Chaque programme a son propre règlement : ouvrez **Règlement** en bas de page pour le consulter. Votre historique d’activité liste chaque attribution dès qu’elle arrive.

## Comment échanger mes points dans le catalogue ?
Depuis la page d’accueil, choisissez une vignette de catalogue ou le menu **Échanger**. Le catalogue s’ouvre dans un nouvel onglet avec votre solde ; les points d’une commande sont débités lorsque vous la confirmez.

## Qu’est-ce qu’un code instantané ?
Un code à usage unique qu’un responsable peut vous remettre pour saluer immédiatement un beau travail. Saisissez-le dans l’encadré du code instantané sur la page d’accueil : ses points sont ajoutés aussitôt à votre solde. Chaque code ne peut être utilisé qu’une fois.

## Mes points expirent-ils ?
Les points restent valables 24 mois après le mois où vous les avez gagnés. Les points les plus anciens sont toujours utilisés en premier.

## Comment changer mon mot de passe ou ma langue ?
Ouvrez **Profil** depuis le menu en haut de la page. Vous pouvez choisir une autre langue à tout moment grâce au sélecteur de langue.

## Qui contacter en cas de problème ?
Utilisez la page [Nous contacter](/contact) : choisissez un sujet, décrivez le problème et notre équipe d’assistance vous répondra sous deux jours ouvrés.`,

  [contentKeys.privacyPolicy]: `Acme Corporation (« Acme », « nous ») gère le programme Acme Rewards. La présente politique explique quelles données personnelles nous utilisons, pourquoi, et les choix dont vous disposez.

## Ce que nous collectons
- Vos nom, adresse e-mail professionnelle, numéro de salarié ou de compte et langue.
- Les points que vous gagnez et dépensez, ainsi que les récompenses que vous commandez.
- Les messages que vous nous envoyez via la page Nous contacter.
- Les données techniques nécessaires pour vous garder connecté en toute sécurité, comme un identifiant de session.

## Pourquoi nous les utilisons
Nous utilisons vos données uniquement pour faire fonctionner le programme : tenir votre compte, enregistrer vos points, livrer vos récompenses et répondre à vos questions. Nous ne les utilisons pas à des fins publicitaires.

## Avec qui nous les partageons
Nous ne partageons que le strict nécessaire avec les partenaires qui fournissent les récompenses (catalogues et sociétés de livraison). Ils ne peuvent utiliser vos données qu’à cette fin. Nous ne vendons jamais vos données.

## Durée de conservation
Nous conservons votre compte pendant votre participation au programme et jusqu’à deux ans après, sauf si la loi impose une durée plus longue.

## Vos droits
Vous pouvez demander à consulter, rectifier ou supprimer vos données, ou vous opposer à leur utilisation. Écrivez-nous via la page Nous contacter ou à privacy@acme.example.`,

  [contentKeys.privacyNotice]: `Cet avis décrit les données que ce site enregistre dans votre navigateur.

## Ce que nous enregistrons
- **Un identifiant de session** tant que vous êtes connecté, pour que vous le restiez d’une page à l’autre. Il est supprimé lorsque vous vous déconnectez ou fermez le navigateur.
- **Votre langue et le résumé de votre compte** dans le stockage de session du navigateur, pour que les pages se chargent rapidement. Ils sont effacés à la fermeture de l’onglet.
- **Le fait que vous avez lu cet avis**, pour ne pas vous le redemander.

## Ce que nous ne faisons pas
Nous n’utilisons ni cookies publicitaires, ni pixels de suivi, ni outils d’analyse qui vous suivent sur d’autres sites.

## Votre choix
Ces données sont nécessaires au fonctionnement du site. Si vous les bloquez dans votre navigateur, vous ne pourrez pas vous connecter.

Pour savoir comment Acme utilise vos données personnelles, consultez la [politique de confidentialité](/privacy-shield).`,
};

const ar: Record<string, string> = {
  [rulesKey(SALES)]:
    `يكافئ برنامج Sales Incentive 2026 أعضاء فريق المبيعات على الأعمال الجديدة التي يحققونها بين **1 يناير و31 ديسمبر 2026**.

### من يمكنه المشاركة
- موظفو Acme الذين يشغلون وظيفة في المبيعات في 1 يناير 2026، أو ينضمون إلى وظيفة في المبيعات خلال العام.
- المتعاقدون وموظفو الوكالات غير مؤهلين.

### كيف تُكتسب النقاط
| الإنجاز | نقاط Acme |
|---|---|
| توقيع عقد مع عميل جديد | 500 |
| كل 10,000 دولار أمريكي كاملة من إيرادات السنة الأولى | 100 |
| تحقيق الهدف الربعي | 1,000 |
| تجاوز الهدف السنوي بنسبة 20% أو أكثر | 5,000 |

تُمنح النقاط في نهاية الشهر الذي يلي تأكيد الإدارة المالية لعملية البيع.

### معلومات مفيدة
1. تُقسَّم المبيعات المشتركة بين عدة أشخاص بالتساوي ما لم يقرر المدير خلاف ذلك.
2. يؤدي إلغاء العقد إلى سحب النقاط التي اكتُسبت منه.
3. يجوز لشركة Acme تعديل هذه القواعد بإشعار مدته 30 يوماً يُنشر في هذه الصفحة.`,

  [rulesKey(SERVICE)]: `تعبّر جوائز الخدمة عن شكر Acme لموظفيها على سنوات عملهم معها.

### المراحل
| سنوات الخدمة | نقاط Acme |
|---|---|
| سنة واحدة | 250 |
| 5 سنوات | 1,500 |
| 10 سنوات | 4,000 |
| 15 سنة ثم كل 5 سنوات بعدها | 6,000 |

### آلية العمل
- تصل النقاط إلى حسابك في شهر ذكرى التحاقك بالعمل.
- تُحتسب فترات الإجازة ضمن سنوات خدمتك.
- إذا غادرت Acme، تبقى النقاط التي مُنحت لك ملكك حتى انتهاء صلاحيتها.`,

  [contentKeys.faqs]: `## ما هي نقاط Acme؟
نقاط Acme هي عملة المكافآت في هذا البرنامج. تكسبها من خلال البرامج التي تشارك فيها، وتنفقها على المكافآت في الكتالوجات.

## كيف أكسب النقاط؟
لكل برنامج قواعده الخاصة: افتح **القواعد** في أسفل الصفحة للاطلاع عليها. ويعرض سجل نشاطك كل مكافأة فور وصولها.

## كيف أستبدل نقاطي في الكتالوج؟
من الصفحة الرئيسية، اختر إحدى بطاقات الكتالوج أو قائمة **استبدال**. يُفتح الكتالوج في علامة تبويب جديدة مع رصيدك، وتُخصم نقاط الطلب من حسابك عند تأكيده.

## ما هو الرمز الفوري؟
رمز يُستخدم مرة واحدة يمكن أن يمنحك إياه المدير تقديراً فورياً لعمل متميز. أدخله في خانة الرمز الفوري في الصفحة الرئيسية لتُضاف نقاطه إلى رصيدك على الفور. لا يمكن استخدام كل رمز إلا مرة واحدة.

## هل تنتهي صلاحية نقاطي؟
تبقى النقاط صالحة لمدة 24 شهراً بعد الشهر الذي اكتسبتها فيه. وتُستخدم النقاط الأقدم أولاً دائماً.

## كيف أغيّر كلمة المرور أو اللغة؟
افتح **الملف الشخصي** من القائمة في أعلى الصفحة. ويمكنك اختيار لغة أخرى في أي وقت من قائمة اختيار اللغة.

## بمن أتصل إذا حدثت مشكلة؟
استخدم صفحة [اتصل بنا](/contact): اختر موضوعاً، وصِف المشكلة، وسيرد عليك فريق الدعم خلال يومَي عمل.`,

  [contentKeys.privacyPolicy]: `تدير شركة Acme Corporation ("Acme" أو "نحن") برنامج Acme Rewards. توضح هذه السياسة البيانات الشخصية التي نستخدمها، وسبب استخدامها، والخيارات المتاحة لك.

## ما نجمعه
- اسمك وبريدك الإلكتروني للعمل ورقم الموظف أو الحساب ولغتك.
- النقاط التي تكسبها وتنفقها، والمكافآت التي تطلبها.
- الرسائل التي ترسلها إلينا عبر صفحة اتصل بنا.
- البيانات التقنية اللازمة لإبقائك مسجلاً الدخول بأمان، مثل معرّف الجلسة.

## لماذا نستخدمها
نستخدم بياناتك فقط لتشغيل البرنامج: للاحتفاظ بحسابك، وتسجيل نقاطك، وتسليم مكافآتك، والإجابة عن أسئلتك. ولا نستخدمها لأغراض إعلانية.

## مع من نشاركها
لا نشارك إلا ما يلزم مع الشركاء الذين يوفّرون المكافآت (شركات الكتالوجات والتوصيل)، ولا يجوز لهم استخدام بياناتك إلا لهذا الغرض. ولا نبيع بياناتك أبداً.

## مدة الاحتفاظ بها
نحتفظ بحسابك طوال مشاركتك في البرنامج ولمدة تصل إلى سنتين بعد ذلك، ما لم يفرض القانون مدة أطول.

## حقوقك
يحق لك أن تطلب الاطلاع على بياناتك أو تصحيحها أو حذفها، أو أن تعترض على طريقة استخدامها. راسلنا عبر صفحة اتصل بنا أو على privacy@acme.example.`,

  [contentKeys.privacyNotice]: `يوضح هذا الإشعار البيانات التي يخزّنها هذا الموقع في متصفحك.

## ما نخزّنه
- **معرّف جلسة** طوال فترة تسجيل دخولك، لتبقى مسجلاً الدخول أثناء التنقل بين الصفحات. ويُحذف عند تسجيل الخروج أو إغلاق المتصفح.
- **لغتك وملخص حسابك** في مساحة تخزين الجلسة في المتصفح، لتُحمَّل الصفحات بسرعة. وتُمسح عند إغلاق علامة التبويب.
- **ما إذا كنت قد قرأت هذا الإشعار**، حتى لا نطلب منك ذلك مجدداً.

## ما لا نفعله
لا نستخدم ملفات تعريف ارتباط إعلانية، ولا وحدات بكسل للتتبع، ولا أدوات تحليل تتبعك إلى مواقع أخرى.

## خيارك
التخزين المذكور أعلاه ضروري لعمل الموقع. وإذا حظرته في متصفحك فلن تتمكن من تسجيل الدخول.

لمعرفة كيفية استخدام Acme لبياناتك الشخصية، اطّلع على [سياسة الخصوصية](/privacy-shield).`,
};

/** The content part of the demo program (issue 5): one bulk insert of 15 texts. */
export async function seedDemoContent(ctx: DemoSeedContext): Promise<void> {
  const updatedAt = ctx.now.toISOString();
  const rows = Object.entries({ 'en-US': enUS, 'fr-FR': frFR, ar }).flatMap(([locale, texts]) =>
    Object.entries(texts).map(([key, body]) => ({ client_id: ctx.clientId, locale, key, body, updated_at: updatedAt })),
  );
  await ctx.trx.insertInto('content_entries').values(rows).execute();
}
