// The brand's own site copy and illustrations (home hero, artisan process, /nosotros).
// This is the shop's content, not demo data: it ships with the shop whether or not the demo catalogue
// is loaded. The brand *name* is a setting (Configuración, app/settings), so it is not repeated here.
// Illustrations live in public/brand/ as hand-drawn SVG; width and height match each file's viewBox.

export interface ProcessStep {
  title: string;
  /** one sentence */
  description: string;
}

export interface Illustration {
  /** path under public/, e.g. "/brand/hero.svg" */
  src: string;
  /** Spanish description of what the picture shows */
  alt: string;
  width: number;
  height: number;
}

export const BRAND: {
  tagline: string;
  /** where the workshop is, for footers and the about block */
  origin: string;
  /** 2-3 sentences */
  story: string;
  /** the artisan process, 4 steps, for the home page */
  process: ProcessStep[];
} = {
  tagline: "Joyería de oro hecha a mano en Oaxaca, en colecciones pequeñas.",
  origin: "Taller en Oaxaca de Juárez · Estudio en la Ciudad de México",
  story:
    "Oro de Luna empezó en 2016 en una mesa de trabajo en el barrio de Jalatlaco, en Oaxaca, con una segueta, un soplete y muchas ganas de aprender de los orfebres del mercado. Hoy somos cinco personas entre el taller de Oaxaca y un pequeño estudio en la colonia Roma, y seguimos haciendo cada pieza a mano, una por una. Sacamos pocas colecciones al año y en cantidades cortas: cuando una pieza se agota, casi nunca vuelve.",
  process: [
    {
      title: "Dibujo y cera",
      description:
        "Cada pieza empieza como un boceto a lápiz y un modelo tallado a mano en cera, a la medida real.",
    },
    {
      title: "Fundición a la cera perdida",
      description:
        "Fundimos oro reciclado de 10k, 14k y 18k en el taller, en tandas pequeñas para cada colección.",
    },
    {
      title: "Forja, soldadura y engaste",
      description:
        "Limamos, soldamos y engastamos cada piedra con buril y pinzas, sin moldes de producción en serie.",
    },
    {
      title: "Pulido y marca",
      description:
        "Pulimos a mano, grabamos el quilataje por dentro y revisamos cada broche antes de empacarlo.",
    },
  ],
};

/** Home page hero, wide. */
export const HERO_IMAGE: Illustration = {
  src: "/brand/hero.svg",
  alt: "Un anillo, una cadena con medalla y unas arracadas de oro sobre pedestales color arena, con una luna creciente dorada al fondo",
  width: 1600,
  height: 900,
};

/**
 * The hero as a JPEG, for link previews (og:image): WhatsApp, where the shop's links are shared,
 * shows neither SVG nor WebP. hero.svg rendered by sharp at 1200 px on the cream background
 * (`sharp("public/brand/hero.svg").resize({ width: 1200 }).flatten({ background: "#faf6ef" })
 * .jpeg({ quality: 82, mozjpeg: true })`): made again when the drawing changes.
 */
export const HERO_SHARE_IMAGE = "/brand/hero.jpg";

/** Home page, artisan-process section. */
export const PROCESS_IMAGE: Illustration = {
  src: "/brand/proceso.svg",
  alt: "Mesa de orfebre vista desde arriba: segueta, limas, un modelo de cera, un boceto a lápiz y un anillo de oro en el tribulete",
  width: 1200,
  height: 900,
};

/** /nosotros: the story, one card per chapter, oldest first. */
export const STORY_CARDS: { year: string; title: string; text: string; image: Illustration }[] = [
  {
    year: "2016",
    title: "Una mesa en Jalatlaco",
    text: "Todo cabía en un cuarto prestado: una mesa de pino, un banco de madera, una segueta y un soplete de garrafa. Las primeras piezas fueron argollas para amigos, pagadas con lo que cada quien podía.",
    image: {
      src: "/brand/historia-jalatlaco.svg",
      alt: "Mesa de trabajo de madera junto a una ventana, con una lámpara de brazo, una segueta y un anillo a medio hacer",
      width: 800,
      height: 600,
    },
  },
  {
    year: "2017",
    title: "Los sábados en el mercado",
    text: "Los fines de semana nos sentábamos junto a los orfebres del mercado a verlos soldar filigrana. Ahí aprendimos a trabajar sin prisa y a limar hasta que la pieza se siente bien en la mano.",
    image: {
      src: "/brand/historia-mercado.svg",
      alt: "Arracadas de filigrana de oro colgadas en un exhibidor de puesto de mercado, bajo un toldo a rayas",
      width: 800,
      height: 600,
    },
  },
  {
    year: "2018",
    title: "La primera colección",
    text: "Doce modelos y treinta piezas en total, vendidas por mensaje a amigos de amigos. Se acabaron en ocho días, y entendimos que queríamos trabajar así: poco, bien y por temporadas.",
    image: {
      src: "/brand/historia-primera-coleccion.svg",
      alt: "Anillos, aretes y una cadena de oro acomodados sobre una tela de lino, con una etiqueta de papel atada con hilo",
      width: 800,
      height: 600,
    },
  },
  {
    year: "2020",
    title: "Solo oro reciclado",
    text: "Dejamos de comprar oro nuevo. Fundimos joyería antigua, anillos que nos traen para transformar y las limaduras que barremos del taller, y cada colada se ensaya para garantizar su quilataje.",
    image: {
      src: "/brand/historia-oro-reciclado.svg",
      alt: "Crisol de cerámica con granalla de oro y una lingotera con un pequeño lingote recién vaciado",
      width: 800,
      height: 600,
    },
  },
  {
    year: "2022",
    title: "Un estudio en la Roma",
    text: "Abrimos un estudio chico en la colonia Roma para recibir citas, ajustar tallas y fotografiar cada colección. Las piezas se siguen haciendo en Oaxaca y viajan a la ciudad en autobús, bien envueltas.",
    image: {
      src: "/brand/historia-estudio-roma.svg",
      alt: "Ventana de un estudio con ramas de jacaranda en flor afuera y una mesa con cajas de joyería y un espejo",
      width: 800,
      height: 600,
    },
  },
  {
    year: "2026",
    title: "Cinco personas, una pieza a la vez",
    text: "Hoy somos cinco entre el taller y el estudio. Cada pieza pasa por al menos tres pares de manos antes de llegar a su caja, y quien la empaca revisa el broche una última vez.",
    image: {
      src: "/brand/historia-empaque.svg",
      alt: "Caja de joyería abierta con un anillo de oro sobre papel de china, junto a un listón y una tarjeta escrita a mano",
      width: 800,
      height: 600,
    },
  },
];

/** /nosotros: milestones, oldest first. */
export const TIMELINE: { year: string; title: string; text: string }[] = [
  {
    year: "2016",
    title: "El primer banco",
    text: "Instalamos la primera mesa de trabajo en un cuarto prestado del barrio de Jalatlaco, en Oaxaca.",
  },
  {
    year: "2017",
    title: "Aprender de los maestros",
    text: "Un año de sábados junto a los orfebres del mercado: soldadura, filigrana y la paciencia del pulido.",
  },
  {
    year: "2018",
    title: "Primera colección",
    text: "Doce modelos y treinta piezas, agotadas en ocho días. Desde entonces trabajamos por temporadas.",
  },
  {
    year: "2020",
    title: "Fundición propia y oro reciclado",
    text: "Compramos nuestro primer horno de fundición y dejamos de usar oro nuevo.",
  },
  {
    year: "2022",
    title: "Estudio en la Ciudad de México",
    text: "Abrimos un estudio en la colonia Roma para citas, ajustes de talla y fotografía.",
  },
  {
    year: "2024",
    title: "Colecciones en línea",
    text: "Empezamos a lanzar cada colección en nuestra tienda en línea, con envíos a todo México.",
  },
  {
    year: "2026",
    title: "Diez años",
    text: "Cumplimos una década. La mesa de pino de Jalatlaco sigue en el taller, y todavía trabajamos en ella.",
  },
];

/** /nosotros: the same thing before and after the work is done. */
export const WORKSHOP_BEFORE_AFTER: {
  title: string;
  caption: string;
  before: Illustration;
  after: Illustration;
}[] = [
  {
    title: "De la fundición al pulido",
    caption:
      "Un anillo recién salido del molde, opaco y todavía unido al bebedero, junto al grano de oro que sobró de la colada. Después de cortarlo, limarlo, lijarlo y pulirlo a mano, es el mismo anillo.",
    before: {
      src: "/brand/antes-fundicion.svg",
      alt: "Anillo de oro en bruto, opaco y unido al bebedero de fundición, junto a granalla de oro sobre la mesa",
      width: 800,
      height: 600,
    },
    after: {
      src: "/brand/despues-pulido.svg",
      alt: "El mismo anillo terminado y pulido a espejo, sobre la misma mesa",
      width: 800,
      height: 600,
    },
  },
  {
    title: "La mesa, un martes y un viernes",
    caption:
      "A media semana la mesa se llena de limaduras, pinzas y piezas a medio hacer. El viernes se limpia, se recupera cada limadura de oro para volver a fundirla y lo terminado sale en charola.",
    before: {
      src: "/brand/antes-mesa.svg",
      alt: "Mesa de trabajo desordenada con limas, pinzas, segueta, limaduras de oro y piezas a medio hacer",
      width: 800,
      height: 600,
    },
    after: {
      src: "/brand/despues-mesa.svg",
      alt: "La misma mesa ordenada, con las herramientas en su lugar y una charola con anillos y aretes terminados",
      width: 800,
      height: 600,
    },
  },
];

/** /nosotros: shown in place of the process video until one is configured, and as its poster. */
export const PROCESS_VIDEO_POSTER: Illustration = {
  src: "/brand/video-proceso.svg",
  alt: "La flama del soplete sobre un anillo de oro puesto en un bloque de carbón para soldar",
  width: 1280,
  height: 720,
};
