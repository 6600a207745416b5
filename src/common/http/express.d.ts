declare global {
  namespace Express {
    interface Request {
      id: string;
      rawBody?: Buffer;
    }
  }
}

export {};
