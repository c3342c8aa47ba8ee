/**
 * The demo catalog's own words, in the portal demo's three languages. It is a separate app
 * standing in for a partner's catalog, so it keeps its own small dictionary instead of the
 * portal's bundles.
 */
export type CatalogLanguage = 'en' | 'fr' | 'ar';

export interface CatalogTexts {
  dir: 'ltr' | 'rtl';
  title: { merchandise: string; experiences: string };
  brand: string;
  hello: string;
  balance: string;
  points: string;
  order: string;
  notEnough: string;
  backToPortal: string;
  ordered: string;
  orderedDetail: string;
  orderNumber: string;
  newBalance: string;
  expiredTitle: string;
  expired: string;
  invalidTitle: string;
  invalid: string;
  usedTitle: string;
  used: string;
  endedTitle: string;
  ended: string;
  unreachableTitle: string;
  unreachable: string;
  refusedTitle: string;
  insufficient: string;
  conflict: string;
  failed: string;
  travelTitle: string;
  travel: string;
  notFound: string;
  itemsHeading: string;
}

export const texts: Record<CatalogLanguage, CatalogTexts> = {
  en: {
    dir: 'ltr',
    title: { merchandise: 'Merchandise', experiences: 'Experiences' },
    brand: 'Acme demo catalog',
    hello: 'Hello, {name}',
    balance: 'Your balance',
    points: 'points',
    order: 'Order',
    notEnough: 'Not enough points',
    backToPortal: 'Back to the portal',
    ordered: 'Thank you for your order',
    orderedDetail: '{item} is on its way.',
    orderNumber: 'Order number',
    newBalance: 'Your new balance',
    expiredTitle: 'This link has expired',
    expired: 'Catalog links are valid for five minutes. Open the catalog again from the portal.',
    invalidTitle: 'This link is not valid',
    invalid: 'We could not confirm who you are. Open the catalog from the portal.',
    usedTitle: 'This link was already used',
    used: 'Each catalog link opens the catalog once, and this one has been opened before. Nothing can be ordered with it. Open the catalog again from the portal.',
    endedTitle: 'Your portal session has ended',
    ended:
      'You signed out of the portal, or your session there expired, so this link no longer opens the catalog. Sign in to the portal and open the catalog again from there.',
    unreachableTitle: 'The catalog cannot open right now',
    unreachable: 'We could not confirm this link with the portal. Please open the catalog again from the portal in a moment.',
    refusedTitle: 'The order was not placed',
    insufficient: 'Your balance does not cover this item. Nothing was debited.',
    conflict: 'This order number was already used for a different order. Nothing was debited.',
    failed: 'The order could not be placed right now. Please try again.',
    travelTitle: 'Travel',
    travel: 'Travel booking opens with our travel partner. In this demo there is nothing to book yet.',
    notFound: 'There is no such catalog.',
    itemsHeading: 'Items',
  },
  fr: {
    dir: 'ltr',
    title: { merchandise: 'Boutique', experiences: 'Expériences' },
    brand: 'Catalogue de démonstration Acme',
    hello: 'Bonjour, {name}',
    balance: 'Votre solde',
    points: 'points',
    order: 'Commander',
    notEnough: 'Points insuffisants',
    backToPortal: 'Retour au portail',
    ordered: 'Merci pour votre commande',
    orderedDetail: '{item} est en route.',
    orderNumber: 'Numéro de commande',
    newBalance: 'Votre nouveau solde',
    expiredTitle: 'Ce lien a expiré',
    expired: 'Les liens du catalogue sont valables cinq minutes. Ouvrez à nouveau le catalogue depuis le portail.',
    invalidTitle: "Ce lien n'est pas valide",
    invalid: "Nous n'avons pas pu confirmer votre identité. Ouvrez le catalogue depuis le portail.",
    usedTitle: 'Ce lien a déjà servi',
    used: "Chaque lien n'ouvre le catalogue qu'une fois, et celui-ci a déjà été ouvert. Il ne permet aucune commande. Ouvrez à nouveau le catalogue depuis le portail.",
    endedTitle: 'Votre session sur le portail est terminée',
    ended:
      "Vous vous êtes déconnecté du portail, ou votre session y a expiré : ce lien n'ouvre plus le catalogue. Connectez-vous au portail et ouvrez à nouveau le catalogue depuis celui-ci.",
    unreachableTitle: "Le catalogue ne peut pas s'ouvrir pour le moment",
    unreachable:
      "Nous n'avons pas pu confirmer ce lien auprès du portail. Ouvrez à nouveau le catalogue depuis le portail dans un instant.",
    refusedTitle: "La commande n'a pas été passée",
    insufficient: "Votre solde ne couvre pas cet article. Rien n'a été débité.",
    conflict: "Ce numéro de commande a déjà servi pour une autre commande. Rien n'a été débité.",
    failed: "La commande n'a pas pu être passée pour le moment. Veuillez réessayer.",
    travelTitle: 'Voyages',
    travel: "La réservation de voyages s'ouvre chez notre partenaire. Dans cette démonstration, il n'y a encore rien à réserver.",
    notFound: "Ce catalogue n'existe pas.",
    itemsHeading: 'Articles',
  },
  ar: {
    dir: 'rtl',
    title: { merchandise: 'المنتجات', experiences: 'التجارب' },
    brand: 'كتالوج أكمي التجريبي',
    hello: 'مرحبًا، {name}',
    balance: 'رصيدك',
    points: 'نقطة',
    order: 'اطلب',
    notEnough: 'النقاط غير كافية',
    backToPortal: 'العودة إلى البوابة',
    ordered: 'شكرًا على طلبك',
    orderedDetail: '{item} في الطريق إليك.',
    orderNumber: 'رقم الطلب',
    newBalance: 'رصيدك الجديد',
    expiredTitle: 'انتهت صلاحية هذا الرابط',
    expired: 'روابط الكتالوج صالحة لمدة خمس دقائق. افتح الكتالوج مرة أخرى من البوابة.',
    invalidTitle: 'هذا الرابط غير صالح',
    invalid: 'تعذّر علينا التحقق من هويتك. افتح الكتالوج من البوابة.',
    usedTitle: 'تم استخدام هذا الرابط من قبل',
    used: 'كل رابط يفتح الكتالوج مرة واحدة فقط، وقد فُتح هذا الرابط من قبل. لا يمكن الطلب به. افتح الكتالوج مرة أخرى من البوابة.',
    endedTitle: 'انتهت جلستك في البوابة',
    ended:
      'لقد سجّلت الخروج من البوابة أو انتهت جلستك فيها، لذلك لم يعد هذا الرابط يفتح الكتالوج. سجّل الدخول إلى البوابة وافتح الكتالوج مرة أخرى من هناك.',
    unreachableTitle: 'تعذّر فتح الكتالوج الآن',
    unreachable: 'تعذّر علينا التحقق من هذا الرابط لدى البوابة. يُرجى فتح الكتالوج مرة أخرى من البوابة بعد قليل.',
    refusedTitle: 'لم يتم تنفيذ الطلب',
    insufficient: 'رصيدك لا يغطي هذا المنتج. لم يتم خصم أي نقاط.',
    conflict: 'رقم الطلب هذا مستخدم بالفعل لطلب مختلف. لم يتم خصم أي نقاط.',
    failed: 'تعذّر تنفيذ الطلب الآن. يُرجى المحاولة مرة أخرى.',
    travelTitle: 'السفر',
    travel: 'يتم حجز السفر لدى شريكنا في السفر. لا يوجد ما يمكن حجزه بعد في هذا العرض التجريبي.',
    notFound: 'لا يوجد كتالوج بهذا الاسم.',
    itemsHeading: 'المنتجات المتاحة',
  },
};

export interface CatalogItem {
  sku: string;
  points: number;
  name: Record<CatalogLanguage, string>;
  detail: Record<CatalogLanguage, string>;
}

export const items: { merchandise: CatalogItem[]; experiences: CatalogItem[] } = {
  merchandise: [
    {
      sku: 'M-EARBUDS',
      points: 2400,
      name: { en: 'Wireless earbuds', fr: 'Écouteurs sans fil', ar: 'سماعات أذن لاسلكية' },
      detail: {
        en: 'Noise cancelling, 24-hour battery.',
        fr: 'Réduction de bruit, 24 heures d’autonomie.',
        ar: 'عزل للضوضاء وبطارية تدوم 24 ساعة.',
      },
    },
    {
      sku: 'M-GRINDER',
      points: 1800,
      name: { en: 'Coffee grinder', fr: 'Moulin à café', ar: 'مطحنة قهوة' },
      detail: { en: 'Burr grinder with 15 settings.', fr: 'Meules coniques, 15 réglages.', ar: 'مطحنة بشفرات مخروطية و15 درجة طحن.' },
    },
    {
      sku: 'M-MUG',
      points: 450,
      name: { en: 'Travel mug', fr: 'Mug de voyage', ar: 'كوب سفر' },
      detail: {
        en: 'Keeps drinks hot for six hours.',
        fr: 'Garde les boissons chaudes six heures.',
        ar: 'يحافظ على سخونة المشروبات ست ساعات.',
      },
    },
    {
      sku: 'M-BACKPACK',
      points: 3200,
      name: { en: 'City backpack', fr: 'Sac à dos urbain', ar: 'حقيبة ظهر للمدينة' },
      detail: {
        en: 'Water-resistant, fits a 15-inch laptop.',
        fr: 'Déperlant, pour ordinateur 15 pouces.',
        ar: 'مقاومة للماء وتتسع لحاسوب 15 بوصة.',
      },
    },
    {
      sku: 'M-EREADER',
      points: 6800,
      name: { en: 'E-reader', fr: 'Liseuse', ar: 'قارئ كتب إلكترونية' },
      detail: {
        en: 'Glare-free screen, weeks of reading.',
        fr: 'Écran antireflet, des semaines de lecture.',
        ar: 'شاشة مضادة للانعكاس وأسابيع من القراءة.',
      },
    },
    {
      sku: 'M-WATCH',
      points: 9500,
      name: { en: 'Smart watch', fr: 'Montre connectée', ar: 'ساعة ذكية' },
      detail: {
        en: 'Heart rate, GPS and sleep tracking.',
        fr: 'Cardio, GPS et suivi du sommeil.',
        ar: 'قياس نبض القلب وتحديد الموقع وتتبع النوم.',
      },
    },
  ],
  experiences: [
    {
      sku: 'E-COOKING',
      points: 3500,
      name: { en: 'Cooking class for two', fr: 'Cours de cuisine pour deux', ar: 'درس طبخ لشخصين' },
      detail: {
        en: 'Three hours with a chef, dinner included.',
        fr: 'Trois heures avec un chef, dîner compris.',
        ar: 'ثلاث ساعات مع طاهٍ محترف مع العشاء.',
      },
    },
    {
      sku: 'E-CONCERT',
      points: 2600,
      name: { en: 'Concert tickets', fr: 'Places de concert', ar: 'تذاكر حفلة موسيقية' },
      detail: {
        en: 'Two seats at a concert of your choice.',
        fr: 'Deux places pour le concert de votre choix.',
        ar: 'مقعدان في حفلة من اختيارك.',
      },
    },
    {
      sku: 'E-SPA',
      points: 5200,
      name: { en: 'Spa day', fr: 'Journée spa', ar: 'يوم في المنتجع الصحي' },
      detail: {
        en: 'Massage, pool and sauna for a day.',
        fr: 'Massage, piscine et sauna pour la journée.',
        ar: 'تدليك ومسبح وساونا ليوم كامل.',
      },
    },
    {
      sku: 'E-BALLOON',
      points: 14000,
      name: { en: 'Hot-air balloon flight', fr: 'Vol en montgolfière', ar: 'رحلة بالمنطاد' },
      detail: {
        en: 'Sunrise flight with breakfast on landing.',
        fr: 'Vol au lever du soleil, petit-déjeuner à l’atterrissage.',
        ar: 'رحلة عند الشروق مع فطور بعد الهبوط.',
      },
    },
  ],
};

/** The catalog's language for a portal locale code (en-US, fr-FR, ar, ...): English unless offered. */
export function languageOf(locale: string | undefined): CatalogLanguage {
  const primary = (locale ?? '').toLowerCase().split(/[-_]/)[0];
  return primary === 'fr' || primary === 'ar' ? primary : 'en';
}

/** Fills {placeholders}. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
